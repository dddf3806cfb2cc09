import { createClient, type NvcfClient } from '@nvcf/client';
import type { PageConfig } from '../page-config.js';

/**
 * The signed-in token lives in sessionStorage: it is gone when the tab closes, is not shared
 * with other tabs, and sign-out removes it. Never localStorage, where it would outlive the session.
 */
const KEY = 'nvcf-console:token';

export function savedToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string): void {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    /* storage disabled: the session lasts as long as the page */
  }
}

export function clearToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}

/** The typed client on the gateway's own origin, sending `token` as the bearer. */
export function clientFor(config: PageConfig, token: string): NvcfClient {
  return createClient({ url: new URL(config.graphqlPath, location.origin).toString(), token });
}

/** The tenant of a published development token, when it is one. */
export const tenantOf = (config: PageConfig, token: string): string | undefined =>
  config.devTokens.find((t) => t.token === token)?.tenant;

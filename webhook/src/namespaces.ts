import { KubeApiError, type KubeClient } from '@nvcf/agent/kubernetes';
import type { NamespaceMeta } from './identity.js';

/** A namespace's labels and annotations, or null when it does not exist. */
export type ReadNamespace = (name: string) => Promise<NamespaceMeta | null>;

/**
 * The webhook's RBAC: what kubeNamespaces calls and nothing more. The chart's ClusterRole for the
 * webhook is generated from it (`npm run helm:rbac`, deploy/helm/scripts/rbac.ts).
 */
export const NAMESPACE_READ_RULES = [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }];

export class NamespaceReadTimeout extends Error {
  override name = 'NamespaceReadTimeout';
}

/**
 * From the API server, with the webhook's service account (RBAC: get on namespaces). A read
 * that takes longer than `timeoutMs` fails, so the webhook still answers inside the API server's
 * own timeout with a message that says why.
 */
export function kubeNamespaces(client: KubeClient, timeoutMs: number): ReadNamespace {
  return async (name) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new NamespaceReadTimeout(`reading namespace ${name} took over ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const ns = await Promise.race([
        client.request<{ metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } }>(
          'GET',
          `/api/v1/namespaces/${encodeURIComponent(name)}`,
        ),
        timeout,
      ]);
      return { labels: ns.metadata?.labels ?? {}, annotations: ns.metadata?.annotations ?? {} };
    } catch (err) {
      if (err instanceof KubeApiError && err.code === 404) return null;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Remembers each namespace's answer for `ttlMs`, and lets concurrent admissions into one
 * namespace (an operator scaling a workload up) share a single read. The ids on an instance
 * namespace never change, so only the revision annotation can be stale, and only by `ttlMs`.
 * Failures and missing namespaces are not remembered: the next admission asks again.
 */
export function cachedNamespaces(read: ReadNamespace, ttlMs: number, now: () => number = Date.now): ReadNamespace {
  const cache = new Map<string, { at: number; value: Promise<NamespaceMeta | null> }>();
  return (name) => {
    const t = now();
    const hit = cache.get(name);
    if (hit && t - hit.at < ttlMs) return hit.value;
    if (cache.size >= 1000) for (const [k, v] of cache) if (t - v.at >= ttlMs) cache.delete(k);
    const value = read(name);
    cache.set(name, { at: t, value });
    value.then(
      (ns) => {
        if (!ns && cache.get(name)?.value === value) cache.delete(name);
      },
      () => {
        if (cache.get(name)?.value === value) cache.delete(name);
      },
    );
    return value;
  };
}

import { NvcfError } from '@nvcf/client';

/** `CODE: message`, the registry code first (docs/errors.md) */
export const errorText = (e: unknown): string =>
  e instanceof NvcfError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);

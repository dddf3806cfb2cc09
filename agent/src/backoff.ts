export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export const defaultBackoff: BackoffOptions = { initialMs: 200, maxMs: 10_000, factor: 2 };

/** Capped exponential backoff with equal jitter: attempt n waits between half its cap and the cap (initialMs for n = 1). */
export function backoffDelay(attempt: number, o: BackoffOptions, random = Math.random): number {
  const cap = Math.min(o.maxMs, o.initialMs * o.factor ** (attempt - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}

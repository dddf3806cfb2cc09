import { PermanentFailure, TemporaryFailure } from '../../driver.js';

/** An API server answer other than 2xx, with the server's own Status message. */
export class KubeApiError extends Error {
  override name = 'KubeApiError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static fromResponse(code: number, body: string): KubeApiError {
    let status: { message?: string; reason?: string };
    try {
      const parsed: unknown = JSON.parse(body);
      const field = (key: string) => {
        const v = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
        return typeof v === 'string' ? v : undefined;
      };
      status = { message: field('message'), reason: field('reason') };
    } catch {
      status = { message: body.trim() || `HTTP ${code}` };
    }
    return new KubeApiError(code, status.reason ?? '', status.message ?? `HTTP ${code}`);
  }
}

// 409: a conflict passes once the writer re-reads; 429: throttled; 5xx: the server or etcd;
// 401: credentials being rotated are not the revision's fault
const temporaryCodes = (code: number) => code === 409 || code === 429 || code >= 500 || code === 401;

/**
 * Turns whatever an API call threw into the agent's two outcomes. A 4xx that rejects the
 * object (invalid, bad request, refused by admission, unknown kind) will not pass by
 * retrying: it is permanent and carries the API server's message.
 */
export function classify(err: unknown, what: string): TemporaryFailure | PermanentFailure {
  if (err instanceof TemporaryFailure || err instanceof PermanentFailure) return err;
  if (err instanceof KubeApiError) {
    const message = `${what}: ${err.message}`;
    return temporaryCodes(err.code)
      ? new TemporaryFailure(message, { cause: err })
      : new PermanentFailure(message, { cause: err });
  }
  const e = err as Error & { message?: string };
  // client-node's discovery says this when a kind is not served at all
  if (/Unrecognized API version and kind/.test(e?.message ?? ''))
    return new PermanentFailure(`${what}: ${e.message}`, { cause: err });
  // connection refused, reset, TLS: the API server is away (restarting); try again
  return new TemporaryFailure(`${what}: ${e?.message ?? String(err)}`, { cause: err });
}

import type { GraphQLErrorShape } from './errors.js';

/** What a subscription transport yields: the connection is up, then one result per `next`. */
export type Frame =
  { kind: 'open' } | { kind: 'result'; data?: Record<string, unknown> | null; errors?: GraphQLErrorShape[] };

/**
 * One subscription over one connection. Ends normally on `complete`; throws an NvcfError when it
 * is refused (the registry code) or when the connection breaks (`UNAVAILABLE`: resume elsewhere).
 * Ends quietly once `signal` aborts.
 */
export type Transport = (body: Record<string, unknown>, signal: AbortSignal) => AsyncIterable<Frame>;

export interface TransportContext {
  url: string;
  headers: () => Promise<Record<string, string>>;
  fetch: typeof fetch;
}

import { codeOf } from './fail.js';

// Node's and undici's codes for a connection that could not be made, or was lost: the peer is down,
// restarting or unreachable, not wrong about this request
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

// errors named for a peer that did not answer: AbortSignal.timeout's DOMException, nats.js' request
// timeouts and lost connections, and the bus's publish that gave up through an outage. Not nats.js'
// "no responders": nobody serves that subject (JetStream off, no stream), which waiting does not fix
const OUTAGE_NAMES = new Set(['TimeoutError', 'ConnectionError', 'PublishFailed']);

// an HTTP answer that says "not now" (an API server restarting behind its load balancer, a throttle)
const RETRY_LATER_STATUS = new Set([429, 502, 503, 504]);

const MAX_DEPTH = 8;

/**
 * True when `err` says a dependency (the store, ICMS, NATS, the Kubernetes API) is unavailable right
 * now, rather than that the work itself is wrong: a registry `UNAVAILABLE` error, a refused, reset or
 * timed-out connection, a 429/502/503/504 answer. Its causes are searched too (a wrapped driver error
 * is still an outage). The one place that tells an outage, which a reader waits out, from a failure
 * of the message's own, which it gives up on after a few deliveries.
 */
export function isOutage(err: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > MAX_DEPTH || seen.has(e)) return false;
    seen.add(e);
    if (codeOf(e) === 'UNAVAILABLE') return true;
    const { name, code, status, statusCode, cause, originalError, errors } = e as {
      name?: unknown;
      code?: unknown;
      status?: unknown;
      statusCode?: unknown;
      cause?: unknown;
      originalError?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (typeof name === 'string' && OUTAGE_NAMES.has(name)) return true;
    for (const s of [status, statusCode]) if (typeof s === 'number' && RETRY_LATER_STATUS.has(s)) return true;
    if (visit(cause, depth + 1) || visit(originalError, depth + 1)) return true;
    // a connection attempt to several addresses (AggregateError) failed on all of them
    return Array.isArray(errors) && errors.length > 0 && errors.every((x) => visit(x, depth + 1));
  };
  return visit(err, 0);
}

/** An error as one log-line fragment: `Name: message` (anything else as text). */
export const errorText = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

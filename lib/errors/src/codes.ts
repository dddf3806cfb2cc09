// The one registry of error codes. docs/errors.md is generated from it (npm run errors:docs).
export const Codes = {
  BAD_USER_INPUT: 'The request is malformed or a value is out of range; the message names the field and the allowed values.',
  UNAUTHENTICATED: 'No valid bearer token (HTTP, SSE) or connection_init authorization (WebSocket) was given.',
  FORBIDDEN: 'The caller is authenticated but may not act on this object or cluster.',
  NOT_FOUND: 'No object with this id exists for the caller\'s tenant.',
  CONFLICT: 'The object changed concurrently (another revision won the compare-and-set); read it again and retry.',
  UPDATE_NOT_ALLOWED: 'The GPU specification has no instance request accepted by ICMS yet, or the workload type cannot be updated in place.',
  REDEPLOY_REQUIRED: 'The change touches the worker sidecar contract (service name, port, health); deploy a new function version instead.',
  INVALID_MANIFEST: 'An operator manifest or merge patch fails validation; the message names its index, kind and the failing rule.',
  NO_ELIGIBLE_CLUSTER: 'No cluster the tenant may use offers the GPU, instance type and attributes requested.',
  CURSOR_EXPIRED: 'The resume cursor points before the oldest event the status stream still retains.',
  CURSOR_INVALID: 'The resume cursor is malformed, forged, or belongs to another tenant.',
  LIMIT_EXCEEDED: 'A per-connection or per-tenant limit was reached (subscriptions, document size).',
  NOT_IMPLEMENTED: 'The operation exists in the contract but is not available in this deployment.',
  UNAVAILABLE: 'A dependency (ICMS, the bus, the store) did not answer; retry later.',
  INTERNAL_SERVER_ERROR: 'An unexpected failure; details are in the service log, never in the response.',
} as const;

export type Code = keyof typeof Codes;
export const codeNames = Object.keys(Codes) as Code[];

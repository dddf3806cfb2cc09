// The one registry of error codes. docs/errors.md is generated from it (npm run errors:docs).
export const Codes = {
  BAD_USER_INPUT:
    'The request is malformed or a value is out of range; the message names the field and the allowed values.',
  UNAUTHENTICATED: 'No valid bearer token (HTTP, SSE) or connection_init authorization (WebSocket) was given.',
  FORBIDDEN: 'The caller is authenticated but may not act on this object or cluster.',
  NOT_FOUND: "No object with this id exists for the caller's tenant.",
  CONFLICT: 'The object changed concurrently (another revision won the compare-and-set); read it again and retry.',
  UPDATE_NOT_ALLOWED:
    'The GPU specification has no instance request accepted by ICMS yet, or the workload type cannot be updated in place.',
  REDEPLOY_REQUIRED:
    'The change touches the worker sidecar contract (service name, port, health); deploy a new function version instead.',
  INVALID_MANIFEST:
    'An operator manifest or merge patch fails validation; the message names its index, kind and the failing rule.',
  INVALID_DURATION:
    'A duration is not an ISO-8601 duration this API takes (PnDTnHnMnS or PnW; years and months are ambiguous and refused), or it is outside its allowed range; the message names the field and the range.',
  TASK_ENDED:
    'The task already reached a terminal state; tasks are never changed after that: submit a new task instead.',
  NO_ELIGIBLE_CLUSTER:
    'No cluster the tenant may use offers the GPU, instance type and attributes requested, with GPUs free for them.',
  CURSOR_EXPIRED: 'The resume cursor points before the oldest event the status stream still retains.',
  CURSOR_INVALID: 'The resume cursor is malformed, forged, or belongs to another tenant.',
  LIMIT_EXCEEDED:
    'A size, depth, cost or count limit was exceeded (request body, document tokens, depth, aliases, directives, cost, input values, subscriptions per connection or tenant); the message names the limit and its value. docs/limits.md lists every limit.',
  RATE_LIMITED:
    'The tenant sent more operations or subscription opens per second than its rate allows; retry after the number of seconds in `extensions.retryAfterSeconds` (HTTP: the Retry-After header).',
  PERSISTED_QUERY_NOT_FOUND:
    "The persisted document id (`extensions.persistedQuery.sha256Hash` or `documentId`) is not in the gateway's trusted-documents manifest; a client that has the document may send it with the id, unless the gateway accepts trusted documents only (docs/schema.md).",
  PERSISTED_QUERY_REQUIRED:
    'The gateway accepts trusted documents only (TRUSTED_DOCUMENTS=require): send the id of a document a released client ships, not an ad-hoc document (docs/schema.md).',
  GRAPHQL_PARSE_FAILED: 'The document is not valid GraphQL syntax; the message gives the position.',
  GRAPHQL_VALIDATION_FAILED:
    'The document does not validate against the public schema (unknown field, wrong argument, missing variable…); the message names the field or argument.',
  TIMEOUT:
    "The request did not finish within the gateway's per-request timeout; a mutation may still complete: read the object again before retrying.",
  DOWNSTREAM_SERVICE_ERROR:
    "A service behind the gateway failed while resolving a field (`path` says which); the failure is in that service's log. Retry later.",
  SCHEMA_CHANGED:
    "The gateway loaded a new supergraph in which this subscription's selection no longer validates (a field or argument it uses was removed or changed); the subscription ends with this one error. Subscribe again with a selection the current schema accepts, with `after` = the last cursor received to miss nothing.",
  UNAVAILABLE:
    'A dependency (ICMS, the bus, the store) did not answer; retry later. For a mutation the message tells two cases apart: "unavailable right now; retry in a few seconds" means the store refused the write up front (too few replicas known to be up) and nothing was stored; "did not answer in time, so a change may or may not have been stored" means the write reached some replicas before it timed out (in the seconds after nodes fail, before the survivors notice, or under overload): read the object again before retrying.',
  INTERNAL_SERVER_ERROR: 'An unexpected failure; details are in the service log, never in the response.',
  BACKUP_INCOMPATIBLE:
    "`restore` refused a backup set this store or release cannot take: its migration ledger is older than the target keyspace's (restore into an empty store, which restore migrates to the set's version, then `migrate up`), newer than this release's migrations, or its format or files are not what its manifest says (docs/deploy.md#backups).",
  RESTORE_TARGET_NOT_EMPTY:
    '`restore` refused to write over data: a keyspace of the set holds rows, or one of its streams holds messages or consumers; restore into an empty store, or pass `--replace` to delete them first.',
} as const;

export type Code = keyof typeof Codes;

/**
 * Every limit the gateway enforces before it plans or executes anything. docs/limits.md
 * lists them with their defaults and codes; a test keeps that page in step with this file.
 */
export interface GatewayLimits {
  /** bytes of a request body (HTTP, SSE) or of one WebSocket message */
  maxBodyBytes: number;
  /**
   * bytes of an oversized body read (and thrown away) after its 413 is sent, so that a client still
   * sending receives the answer; past them the connection is cut
   */
  maxDiscardBytes: number;
  /** characters of the GraphQL document */
  maxDocumentChars: number;
  /** lexical tokens of the document: bounds parsing time and the memory of the parse caches */
  maxTokens: number;
  /** nesting of selection sets, through fragments */
  maxDepth: number;
  /** aliased fields, counted after fragment expansion */
  maxAliases: number;
  /** directives in the document */
  maxDirectives: number;
  /** fields the operation selects after fragment expansion; a field with a list argument (ids) counts once per item */
  maxCost: number;
  /** nesting of the variables object (JSON values included) */
  maxVariableDepth: number;
  /** ms a query or mutation may take before the gateway answers TIMEOUT */
  requestTimeoutMs: number;
  /** per tenant and replica: operations (queries, mutations, subscription opens) per second, and the burst above it */
  operationsPerSecond: number;
  operationsBurst: number;
  /** per tenant and replica: subscription opens per second, and the burst above it */
  subscriptionsPerSecond: number;
  subscriptionsBurst: number;
}

export const defaultLimits: GatewayLimits = {
  maxBodyBytes: 1024 * 1024,
  maxDiscardBytes: 16 * 1024 * 1024,
  maxDocumentChars: 32 * 1024,
  maxTokens: 1000,
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 20,
  maxCost: 5000,
  maxVariableDepth: 64,
  requestTimeoutMs: 30_000,
  operationsPerSecond: 200,
  operationsBurst: 400,
  subscriptionsPerSecond: 100,
  subscriptionsBurst: 500,
};

/**
 * One row per limit: its environment variable (`npm start`, the service's main), the code a
 * client gets when it is exceeded, and what it bounds (docs/limits.md is rendered from here).
 */
export const limitSpecs: Record<keyof GatewayLimits, { env: string; code: string; unit: string; what: string }> = {
  maxBodyBytes: {
    env: 'GATEWAY_MAX_BODY_BYTES',
    code: 'LIMIT_EXCEEDED (HTTP 413)',
    unit: 'bytes',
    what: 'request body (HTTP, SSE) or one WebSocket message; answered at once, with `Connection: close`',
  },
  maxDiscardBytes: {
    env: 'GATEWAY_MAX_DISCARD_BYTES',
    code: 'LIMIT_EXCEEDED (HTTP 413)',
    unit: 'bytes',
    what: 'of a body over the limit, read and thrown away after the 413 so that a client still sending receives it; past them the connection is cut',
  },
  maxDocumentChars: {
    env: 'GATEWAY_MAX_DOCUMENT_CHARS',
    code: 'LIMIT_EXCEEDED',
    unit: 'characters',
    what: 'the GraphQL document (`query`)',
  },
  maxTokens: {
    env: 'GATEWAY_MAX_TOKENS',
    code: 'LIMIT_EXCEEDED',
    unit: 'tokens',
    what: 'lexical tokens of the document; the parser stops at the limit',
  },
  maxDepth: {
    env: 'GATEWAY_MAX_DEPTH',
    code: 'LIMIT_EXCEEDED',
    unit: 'levels',
    what: 'nesting of selection sets, through fragments',
  },
  maxAliases: {
    env: 'GATEWAY_MAX_ALIASES',
    code: 'LIMIT_EXCEEDED',
    unit: 'aliases',
    what: 'aliased fields after fragment expansion',
  },
  maxDirectives: {
    env: 'GATEWAY_MAX_DIRECTIVES',
    code: 'LIMIT_EXCEEDED',
    unit: 'directives',
    what: 'directives used in the document',
  },
  maxCost: {
    env: 'GATEWAY_MAX_COST',
    code: 'LIMIT_EXCEEDED',
    unit: 'fields',
    what: 'fields selected after fragment expansion; a field with a list argument (`instances(ids:)`) counts its selection once per item',
  },
  maxVariableDepth: {
    env: 'GATEWAY_MAX_VARIABLE_DEPTH',
    code: 'LIMIT_EXCEEDED',
    unit: 'levels',
    what: 'nesting of the `variables` object, JSON values included',
  },
  requestTimeoutMs: {
    env: 'GATEWAY_REQUEST_TIMEOUT_MS',
    code: 'TIMEOUT (HTTP 504)',
    unit: 'ms',
    what: 'time a query or mutation may take; a mutation may still complete after it; also the longest one subgraph fetch is waited for',
  },
  operationsPerSecond: {
    env: 'GATEWAY_OPERATIONS_PER_SECOND',
    code: 'RATE_LIMITED (HTTP 429, Retry-After)',
    unit: 'per second',
    what: 'operations of one tenant on one gateway replica (HTTP, SSE and WebSocket)',
  },
  operationsBurst: {
    env: 'GATEWAY_OPERATIONS_BURST',
    code: 'RATE_LIMITED (HTTP 429, Retry-After)',
    unit: 'operations',
    what: 'operations one tenant may send at once above its rate',
  },
  subscriptionsPerSecond: {
    env: 'GATEWAY_SUBSCRIPTIONS_PER_SECOND',
    code: 'RATE_LIMITED',
    unit: 'per second',
    what: 'subscription opens of one tenant on one gateway replica',
  },
  subscriptionsBurst: {
    env: 'GATEWAY_SUBSCRIPTIONS_BURST',
    code: 'RATE_LIMITED',
    unit: 'subscriptions',
    what: 'subscription opens one tenant may make at once above its rate',
  },
};

/** The environment variable of each limit. */
export const limitEnv = Object.fromEntries(Object.entries(limitSpecs).map(([k, v]) => [k, v.env])) as Record<
  keyof GatewayLimits,
  string
>;

const shown = (key: keyof GatewayLimits, value: number) => {
  const { unit } = limitSpecs[key];
  if (unit === 'bytes' && value % 1024 === 0)
    return value % (1024 * 1024) === 0 ? `${value / 1024 / 1024} MiB` : `${value / 1024} KiB`;
  if (unit === 'characters' && value % 1024 === 0) return `${value / 1024} Ki characters`;
  if ((key === 'operationsPerSecond' || key === 'subscriptionsPerSecond') && value === 0) return 'off';
  return `${value} ${unit}`;
};

/** The gateway section of docs/limits.md (kept in step by a test; `npm run limits:docs` writes it). */
export function renderGatewayLimitsDocs(): string {
  const rows = (Object.entries(limitSpecs) as [keyof GatewayLimits, (typeof limitSpecs)[keyof GatewayLimits]][]).map(
    ([k, l]) => `| \`${l.env}\` | ${shown(k, defaultLimits[k])} | ${l.code.replace(/^(\w+)/, '`$1`')} | ${l.what} |`,
  );
  return [
    '## Requests at the gateway',
    '',
    'Checked in this order, before the gateway plans or executes anything: authentication',
    "(`UNAUTHENTICATED`, HTTP 401, before the body is read), the body size, the tenant's rate, then",
    'the document: its length, its tokens (the parser stops at the limit), fragment cycles, directives,',
    'literal nesting, depth, aliases and cost (fragments are priced once, never expanded), introspection,',
    'validation against the schema and the variables. The same checks apply to every WebSocket',
    '`subscribe` after an authenticated `connection_init`. Each variable below sets its limit for the',
    'gateway process; rates of 0 turn rate limiting off. Requests refused here are counted in',
    '`nvcf_gateway_requests_refused_total{code}` on the metrics listener (`METRICS_PORT`, loopback).',
    'Caches are bounded by the same limits: the engine keeps at most 1024 parsed documents (each',
    'within the token and character limits, so at most a few hundred KB), the guard at most 500 parsed',
    'documents of up to 2 KiB and 1000 validated ones of up to 8 KiB; nothing an anonymous caller sends is parsed or kept.',
    '',
    '| variable | default | code | what |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

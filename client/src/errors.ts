/** One GraphQL error as the gateway sends it: `extensions.code` is from the registry (docs/errors.md). */
export interface GraphQLErrorShape {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/**
 * Every failure the client reports: a GraphQL error (its registry `code`), a refused request
 * (the HTTP status too), or a transport failure (`UNAVAILABLE`, the cause attached).
 */
export class NvcfError extends Error {
  override name = 'NvcfError';
  /** the registry code (docs/errors.md), e.g. NOT_FOUND, CURSOR_EXPIRED, UNAVAILABLE */
  readonly code: string;
  /** every error of the response, the first one being this error's */
  readonly errors: readonly GraphQLErrorShape[];
  /** the HTTP status, when the gateway answered */
  readonly status?: number;
  /** the field that failed, when one did */
  readonly path?: readonly (string | number)[];
  /** seconds to wait before retrying (RATE_LIMITED) */
  readonly retryAfterSeconds?: number;

  constructor(
    code: string,
    message: string,
    opts: {
      errors?: readonly GraphQLErrorShape[];
      status?: number;
      path?: readonly (string | number)[];
      retryAfterSeconds?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.errors = opts.errors ?? [{ message, extensions: { code } }];
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.path !== undefined) this.path = opts.path;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
  }

  /** The error of a GraphQL response that carries `errors`. */
  static fromErrors(errors: readonly GraphQLErrorShape[], status?: number): NvcfError {
    const first = errors[0] ?? { message: 'the gateway answered with an empty error list' };
    const retry = first.extensions?.retryAfterSeconds;
    return new NvcfError(first.extensions?.code ?? 'INTERNAL_SERVER_ERROR', first.message, {
      errors,
      status,
      path: first.path,
      retryAfterSeconds: typeof retry === 'number' ? retry : undefined,
    });
  }

  /** The gateway could not be reached, or the connection broke. */
  static unavailable(url: string, cause: unknown): NvcfError {
    const why =
      cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    return new NvcfError('UNAVAILABLE', `cannot reach the gateway at ${url}: ${why}`, { cause });
  }
}

/** Codes worth retrying as they are: the same request can succeed later. */
const TRANSIENT = new Set([
  'UNAVAILABLE',
  'RATE_LIMITED',
  'TIMEOUT',
  'DOWNSTREAM_SERVICE_ERROR',
  'INTERNAL_SERVER_ERROR',
]);
export const isTransient = (e: unknown): boolean => e instanceof NvcfError && TRANSIENT.has(e.code);

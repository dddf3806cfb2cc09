import { GraphQLError, type SourceLocation } from 'graphql';
import { Codes, type Code } from './codes.js';

/**
 * A GraphQL error whose `extensions.code` comes from the registry. `cause` is kept on the error
 * (for logs and traces), never in `extensions`: what the client sees is the message and meta.
 */
export function fail(
  code: Code,
  message: string,
  meta: { cause?: unknown } & Record<string, unknown> = {},
): GraphQLError {
  const { cause, ...extensions } = meta;
  const err = new GraphQLError(message, { extensions: { code, ...extensions } });
  if (cause !== undefined) err.cause = cause;
  return err;
}

export const codeOf = (err: unknown): string | undefined =>
  err instanceof GraphQLError ? (err.extensions?.code as string | undefined) : undefined;

const registered = (code: unknown): code is Code =>
  typeof code === 'string' && code in Codes && code !== 'INTERNAL_SERVER_ERROR';

type ErrorLike = {
  message: string;
  extensions?: Record<string, unknown>;
  path?: ReadonlyArray<string | number>;
  locations?: ReadonlyArray<SourceLocation>;
};

/** A client-facing error that keeps where it happened (`path`, `locations`): clients need both to place it. */
function shaped(err: ErrorLike, message: string, extensions: Record<string, unknown>): GraphQLError {
  const e = new GraphQLError(message, { path: err.path, extensions });
  if (err.locations?.length) (e as { locations?: ReadonlyArray<SourceLocation> }).locations = err.locations;
  return e;
}

export interface MaskOptions {
  /**
   * The gateway's view: an error carrying a `path` was raised while a subgraph resolved that
   * field. With a registry code it passes as it is; without one it is the service's fault,
   * not the client's: DOWNSTREAM_SERVICE_ERROR, its message withheld.
   */
  downstream?: boolean;
  /** marks masked errors so that the HTTP layer answers 500 when there is no data (graphql-yoga reads it) */
  markUnexpected?: boolean;
}

/**
 * What a client may see of an error. Registry errors pass (without stack traces); errors
 * about the request itself (syntax, validation, variables: GraphQL errors that wrap no
 * exception) keep their message with a request code; anything else is masked and logged.
 */
export function maskError(
  err: ErrorLike,
  log: (e: unknown) => void = () => {},
  original: unknown = err,
  opts: MaskOptions = {},
): GraphQLError {
  const { stacktrace: _s, exception: _e, originalError: _o, serviceName, ...extensions } = err.extensions ?? {};
  // the engine's own label for a subgraph it could not reach: its message names internal addresses
  const unreachable = opts.downstream && extensions.code === 'DOWNSTREAM_SERVICE_ERROR';
  if (registered(extensions.code) && !unreachable) return shaped(err, err.message, extensions);
  const source = original instanceof GraphQLError ? original : undefined;
  if (source?.originalError instanceof GraphQLError && registered(source.originalError.extensions.code)) {
    return shaped(err, source.originalError.message, { ...source.originalError.extensions });
  }
  if (opts.downstream && err.path?.length) {
    log(original);
    // subgraph names are short and arbitrary ("a", "icms"): quoted, they read as a name in any sentence
    const service = typeof serviceName === 'string' && serviceName ? `service "${serviceName}"` : 'a service';
    return shaped(err, `${service} failed to resolve this field; retry later (the cause is in its log)`, {
      code: 'DOWNSTREAM_SERVICE_ERROR',
      ...(typeof serviceName === 'string' && serviceName ? { serviceName } : {}),
    });
  }
  if (source && !source.originalError && !err.path?.length && !extensions.code?.toString().startsWith('INTERNAL')) {
    const code =
      extensions.code === 'GRAPHQL_VALIDATION_FAILED' || extensions.code === 'GRAPHQL_PARSE_FAILED'
        ? extensions.code
        : 'BAD_USER_INPUT';
    return shaped(err, err.message, { code });
  }
  log(original);
  return new GraphQLError('Internal server error', {
    extensions: { code: 'INTERNAL_SERVER_ERROR', ...(opts.markUnexpected ? { unexpected: true } : {}) },
  });
}

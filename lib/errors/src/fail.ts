import { GraphQLError } from 'graphql';
import { Codes, type Code } from './codes.js';

/** A GraphQL error whose `extensions.code` comes from the registry. */
export const fail = (code: Code, message: string, meta?: Record<string, unknown>): GraphQLError =>
  new GraphQLError(message, { extensions: { code, ...meta } });

export const codeOf = (err: unknown): string | undefined =>
  err instanceof GraphQLError ? (err.extensions?.code as string | undefined) : undefined;

const registered = (code: unknown): code is Code => typeof code === 'string' && code in Codes && code !== 'INTERNAL_SERVER_ERROR';

type ErrorLike = { message: string; extensions?: Record<string, unknown> };

/**
 * What a client may see of an error. Registry errors pass (without stack traces); errors
 * about the request itself (syntax, validation, variables: GraphQL errors that wrap no
 * exception) become BAD_USER_INPUT; anything else is masked and logged.
 */
export function maskError(err: ErrorLike, log: (e: unknown) => void = () => {}, original: unknown = err): GraphQLError {
  const { stacktrace: _s, exception: _e, ...extensions } = err.extensions ?? {};
  if (registered(extensions.code)) return new GraphQLError(err.message, { extensions });
  const source = original instanceof GraphQLError ? original : undefined;
  if (source && !source.originalError && !extensions.code?.toString().startsWith('INTERNAL')) {
    return new GraphQLError(err.message, { extensions: { ...extensions, code: 'BAD_USER_INPUT' } });
  }
  if (source?.originalError instanceof GraphQLError && registered(source.originalError.extensions.code)) {
    return new GraphQLError(source.originalError.message, { extensions: source.originalError.extensions });
  }
  log(original);
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

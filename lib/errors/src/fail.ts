import { GraphQLError } from 'graphql';
import type { Code } from './codes.js';

/** A GraphQL error whose `extensions.code` comes from the registry. */
export const fail = (code: Code, message: string, meta?: Record<string, unknown>): GraphQLError =>
  new GraphQLError(message, { extensions: { code, ...meta } });

export const codeOf = (err: unknown): string | undefined =>
  err instanceof GraphQLError ? (err.extensions?.code as string | undefined) : undefined;

/**
 * Masks anything that is not a registry error: clients never see stack traces or
 * internal messages (they go to the log instead).
 */
export function maskError<E extends { message: string; extensions?: Record<string, unknown> }>(
  err: E,
  log: (e: unknown) => void = (e) => console.error(e),
): GraphQLError | E {
  const code = err.extensions?.code;
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
    const { stacktrace: _s, exception: _e, ...extensions } = err.extensions ?? {};
    return new GraphQLError(err.message, { extensions });
  }
  log(err);
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

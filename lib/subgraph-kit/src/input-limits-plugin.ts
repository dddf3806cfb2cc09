import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import type { InputLimits } from './input-limits.js';
import { checkOperationInputs } from './input-walk.js';

/**
 * Refuses an operation whose inputs cross a bound of input-limits.ts after validation and
 * before any resolver runs, so nothing is stored: HTTP 400 with LIMIT_EXCEEDED (or
 * BAD_USER_INPUT for a domain rule) naming the argument path, its size and the limit.
 */
export function inputLimitsPlugin(limits?: InputLimits): ApolloServerPlugin<BaseContext> {
  // one listener for every request: nothing allocated for an ordinary one
  const listener: GraphQLRequestListener<BaseContext> = {
    async didResolveOperation({ schema, document, operation, request }) {
      const err = checkOperationInputs({ schema, document, operation, variables: request.variables }, limits);
      if (err) {
        err.extensions.http = { status: 400 };
        throw err;
      }
    },
  };
  return { requestDidStart: async () => listener };
}

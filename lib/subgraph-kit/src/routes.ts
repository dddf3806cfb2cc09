import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { rpcAudience } from '@nvcf/auth';
import { readBody, sendJson, graphqlError, BodyTooLarge } from '@nvcf/http';
import type { RequestMetrics } from '@nvcf/service';
import type { Logger } from '@nvcf/logging';
import { Attr, annotate } from '@nvcf/telemetry';
import { errorText, isOutage } from '@nvcf/errors';
import { tenantFrom, TENANT_HEADER } from './context.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Any handler map: a handler of any input type fits `never`. */
export type RpcHandlerMap = Record<string, (tenant: string, input: never) => Promise<unknown>>;

export interface RouteOptions {
  /** the service: the audience of the gateway's tenant assertions, and of RPC callers' (`rpcAudience`) */
  name: string;
  secret: string;
  requests: RequestMetrics;
  maxBodyBytes: number;
}

/** POST and GET /graphql through Apollo, for a tenant the gateway asserted. */
export function graphqlRoute<C extends BaseContext>(
  o: RouteOptions & { apollo: ApolloServer<BaseContext>; context: (tenant: string) => C },
): Route {
  return async (req, res) => {
    const body = req.method === 'POST' ? await readBody(req, o.maxBodyBytes) : '';
    const done = o.requests.start(`graphql:${operationNameOf(body)}`);
    res.once('finish', () => done(res.statusCode >= 500));
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      return sendJson(res, 400, graphqlError('BAD_USER_INPUT', 'request body is not JSON'));
    }
    const result = await o.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method ?? 'GET',
        headers,
        search: new URL(req.url ?? '/', 'http://x').search,
        body: parsed,
      },
      context: async () => {
        const tenant = tenantFrom(o.secret, req.headers[TENANT_HEADER] as string | undefined, o.name);
        annotate({ [Attr.tenant]: tenant });
        return o.context(tenant);
      },
    });
    const out: Record<string, string> = {};
    for (const [k, v] of result.headers) out[k] = v;
    res.writeHead(result.status ?? 200, out);
    if (result.body.kind === 'complete') res.end(result.body.string);
    else {
      for await (const chunk of result.body.asyncIterator) res.write(chunk);
      res.end();
    }
  };
}

/** POST /internal/rpc/<method>: one typed handler per method, for callers signed for this service's RPC audience. */
/** An internal call's HTTP status by its error code; any other registry code is 422. */
const STATUS_OF: Record<string, number> = { UNAUTHENTICATED: 401, INTERNAL_SERVER_ERROR: 500, UNAVAILABLE: 503 };

export function rpcRoute(
  o: RouteOptions & { rpc?: RpcHandlerMap; log: Logger },
): (req: IncomingMessage, res: ServerResponse, method: string) => Promise<void> {
  return async (req, res, method) => {
    const handler = o.rpc && Object.hasOwn(o.rpc, method) ? o.rpc[method] : undefined;
    if (!handler) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no internal method ${method}` } });
    const done = o.requests.start(`rpc:${method}`);
    res.once('finish', () => done(res.statusCode >= 500));
    try {
      const tenant = tenantFrom(o.secret, req.headers[TENANT_HEADER] as string | undefined, rpcAudience(o.name));
      annotate({ [Attr.tenant]: tenant });
      // the caller signed for this service's RPC audience: it is the contract's other side, so its
      // JSON is taken as the method's input, as a typed client takes a response
      const input: unknown = JSON.parse((await readBody(req, o.maxBodyBytes)) || '{}');
      sendJson(res, 200, { result: (await handler(tenant, input as never)) ?? null });
    } catch (err) {
      if (err instanceof BodyTooLarge) throw err;
      const given = err instanceof GraphQLError ? err.extensions.code : undefined;
      // a dependency of this service that is down (its store, the bus) is an outage to the caller
      // too, which it may wait out (nvcf keeps a launch or an update PENDING), not an internal error
      const outage = typeof given !== 'string' && isOutage(err);
      const code = typeof given === 'string' ? given : outage ? 'UNAVAILABLE' : 'INTERNAL_SERVER_ERROR';
      if (code === 'INTERNAL_SERVER_ERROR') o.log.error(`rpc ${method} failed`, err);
      else if (outage) o.log.warn(`rpc ${method} failed: a dependency is unavailable`, err);
      sendJson(res, STATUS_OF[code] ?? 422, {
        error: {
          code,
          message:
            code === 'INTERNAL_SERVER_ERROR'
              ? 'internal error'
              : outage
                ? `${method}: ${errorText(err)}; retry later`
                : (err as Error).message,
          extensions: err instanceof GraphQLError ? err.extensions : {},
        },
      });
    }
  };
}

/** The operation name for metrics, without parsing the document: `query Name`, else `anonymous`. */
export function operationNameOf(body: string): string {
  const named = /"operationName"\s*:\s*"([_A-Za-z][_0-9A-Za-z]{0,63})"/.exec(body);
  if (named) return named[1];
  const inQuery = /"query"\s*:\s*"\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]{0,63})/.exec(body);
  return inQuery?.[1] ?? 'anonymous';
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap, type BaseContext } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { fail, maskError } from '@nvcf/errors';
import { GraphQLError } from 'graphql';
import { rpcAudience } from '@nvcf/auth';
import { tenantFrom, TENANT_HEADER, type TenantContext } from './context.js';
import { readBody, discardBody, sendJson, graphqlError, BodyTooLarge, listen, closeServer } from '@nvcf/http';
import { RequestMetrics, processMetrics } from '@nvcf/service';
import { build, type DisposalStack } from '@nvcf/lifecycle';
import { inputLimitsPlugin } from './input-limits-plugin.js';
import { createLogger, withLogContext } from '@nvcf/logging';
import { Attr, SpanKind, annotate, context, contextFrom, failSpan, startSpan } from '@nvcf/telemetry';

/** The serving side of an RPC contract (method → input and output, e.g. IcmsRpc): one typed handler per method. */
export type RpcHandlers<R extends { [M in keyof R]: { input: unknown; output: unknown } }> = {
  [M in keyof R]: (tenant: string, input: R[M]['input']) => Promise<R[M]['output']>;
};
/** Any handler map: a handler of any input type fits `never`. */
type RpcHandlerMap = Record<string, (tenant: string, input: never) => Promise<unknown>>;

export interface SubgraphOptions<C extends TenantContext> {
  name: string;
  schema: GraphQLSchema;
  /** shared with the gateway; requests without a valid assertion are refused */
  secret: string;
  /** builds per-request context (dataloaders) for a verified tenant */
  context: (tenant: string) => C;
  port?: number;
  host?: string;
  /** serve subscriptions over graphql-ws on the same path */
  subscriptions?: boolean;
  /** internal service-to-service calls, POST /internal/rpc/<name> */
  rpc?: RpcHandlerMap;
  maxBodyBytes?: number;
  /** readiness beyond "listening" (store reachable, consumers running) */
  ready?: () => boolean;
  /** Prometheus text exposition for GET /metrics */
  metrics?: () => string;
}

export interface RunningSubgraph extends AsyncDisposable {
  name: string;
  url: string;
  graphqlUrl: string;
  /** not ready from now on (503), requests in flight finish for up to `graceMs`, then closed */
  drain(graceMs: number): Promise<void>;
  dispose(): Promise<void>;
}

export async function startSubgraph<C extends TenantContext>(opts: SubgraphOptions<C>): Promise<RunningSubgraph> {
  return build((stack) => start(opts, stack));
}

async function start<C extends TenantContext>(
  opts: SubgraphOptions<C>,
  stack: DisposalStack,
): Promise<RunningSubgraph> {
  const { maxBodyBytes = 2 * 1024 * 1024 } = opts;
  const log = createLogger(opts.name);
  const apollo = new ApolloServer<BaseContext>({
    schema: opts.schema,
    includeStacktraceInErrorResponses: false,
    // the service drains itself on SIGTERM; Apollo's own handler would stop it mid-drain and signal again
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginInlineTraceDisabled(), inputLimitsPlugin(), operationAttributes],
    formatError: (formatted, error) => maskError(formatted, (e) => log.error('unexpected error', e), error),
  });
  await apollo.start();
  stack.defer(() => apollo.stop());
  const requests = new RequestMetrics(`nvcf_${opts.name.replace(/\W/g, '_')}`);
  const processInfo = processMetrics(`nvcf_${opts.name.replace(/\W/g, '_')}`);
  let draining = false;

  const handleGraphql = async (req: IncomingMessage, res: ServerResponse) => {
    const body = req.method === 'POST' ? await readBody(req, maxBodyBytes) : '';
    const done = requests.start(`graphql:${operationNameOf(body)}`);
    res.once('finish', () => done(res.statusCode >= 500));
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      return sendJson(res, 400, graphqlError('BAD_USER_INPUT', 'request body is not JSON'));
    }
    const result = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method ?? 'GET',
        headers,
        search: new URL(req.url ?? '/', 'http://x').search,
        body: parsed,
      },
      context: async () => {
        const tenant = tenantFrom(opts.secret, req.headers[TENANT_HEADER] as string | undefined, opts.name);
        annotate({ [Attr.tenant]: tenant });
        return opts.context(tenant);
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

  const handleRpc = async (req: IncomingMessage, res: ServerResponse, method: string) => {
    const handler = opts.rpc && Object.hasOwn(opts.rpc, method) ? opts.rpc[method] : undefined;
    if (!handler) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no internal method ${method}` } });
    const done = requests.start(`rpc:${method}`);
    res.once('finish', () => done(res.statusCode >= 500));
    try {
      const tenant = tenantFrom(opts.secret, req.headers[TENANT_HEADER] as string | undefined, rpcAudience(opts.name));
      annotate({ [Attr.tenant]: tenant });
      // the caller signed for this service's RPC audience: it is the contract's other side, so its
      // JSON is taken as the method's input, as a typed client takes a response
      const input: unknown = JSON.parse((await readBody(req, maxBodyBytes)) || '{}');
      sendJson(res, 200, { result: (await handler(tenant, input as never)) ?? null });
    } catch (err) {
      if (err instanceof BodyTooLarge) throw err;
      const given = err instanceof GraphQLError ? err.extensions.code : undefined;
      const code = typeof given === 'string' ? given : 'INTERNAL_SERVER_ERROR';
      if (code === 'INTERNAL_SERVER_ERROR') log.error(`rpc ${method} failed`, err);
      sendJson(res, code === 'UNAUTHENTICATED' ? 401 : code === 'INTERNAL_SERVER_ERROR' ? 500 : 422, {
        error: {
          code,
          message: code === 'INTERNAL_SERVER_ERROR' ? 'internal error' : (err as Error).message,
          extensions: err instanceof GraphQLError ? err.extensions : {},
        },
      });
    }
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const run = async () => {
      if (path === '/health') return sendJson(res, 200, { status: 'ok' });
      if (path === '/ready') {
        if (draining) return sendJson(res, 503, { status: 'draining' });
        return (opts.ready?.() ?? true)
          ? sendJson(res, 200, { status: 'ready' })
          : sendJson(res, 503, { status: 'starting' });
      }
      if (path === '/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        return res.end(requests.render() + processInfo() + (opts.metrics?.() ?? ''));
      }
      if (path === '/graphql') return handleGraphql(req, res);
      if (path.startsWith('/internal/rpc/') && req.method === 'POST')
        return handleRpc(req, res, path.slice('/internal/rpc/'.length));
      sendJson(res, 404, graphqlError('NOT_FOUND', `no route ${path}`));
    };
    // a SERVER span per request, child of the caller's (W3C traceparent); probes are not traced
    const traced = path === '/graphql' || path.startsWith('/internal/rpc/') ? serverSpan(req, res, path) : undefined;
    const requestId =
      typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : undefined;
    const handle = () => (requestId ? withLogContext({ request_id: requestId }, run) : run());
    (traced ? context.with(traced, handle) : handle()).catch((err) => {
      // answered before the rest of the body is read, then read to its end so the caller gets the answer
      if (err instanceof BodyTooLarge)
        return sendJson(
          res,
          413,
          graphqlError('LIMIT_EXCEEDED', err.message),
          { connection: 'close' },
          {
            endAfter: discardBody(req, maxBodyBytes),
          },
        );
      log.error('request failed', err);
      if (!res.headersSent) sendJson(res, 500, graphqlError('INTERNAL_SERVER_ERROR', 'Internal server error'));
    });
  });

  let wss: WebSocketServer | undefined;
  let wsCleanup: { dispose(): void | Promise<void> } | undefined;
  if (opts.subscriptions) {
    const ws = (wss = new WebSocketServer({ server, path: '/graphql' }));
    stack.defer(() => ws.close());
    wsCleanup = useServer<Record<string, unknown>, { tenant?: string }>(
      {
        schema: opts.schema,
        onConnect: (ctx) => {
          try {
            ctx.extra.tenant = tenantFrom(
              opts.secret,
              ctx.connectionParams?.[TENANT_HEADER] as string | undefined,
              opts.name,
            );
            return true;
          } catch {
            return false;
          }
        },
        context: (ctx) => opts.context(ctx.extra.tenant!),
        onError: (_ctx, _id, _payload, errors) => errors.map((e) => maskError(e)),
      },
      wss,
    );
    const cleanup = wsCleanup;
    stack.defer(() => cleanup.dispose());
  }

  const url = await listen(server, opts.port ?? 0, opts.host);
  let drained: Promise<void> | undefined;
  const running: RunningSubgraph = {
    name: opts.name,
    url,
    graphqlUrl: `${url}/graphql`,
    drain: (graceMs) =>
      (drained ??= (async () => {
        draining = true;
        await wsCleanup?.dispose();
        wss?.close();
        await closeServer(server, { graceMs });
        await apollo.stop();
      })()),
    dispose: () => running.drain(0),
    [Symbol.asyncDispose]: () => running.dispose(),
  };
  return running;
}

export { fail };

/** The operation name for metrics, without parsing the document: `query Name`, else `anonymous`. */
function operationNameOf(body: string): string {
  const named = /"operationName"\s*:\s*"([_A-Za-z][_0-9A-Za-z]{0,63})"/.exec(body);
  if (named) return named[1];
  const inQuery = /"query"\s*:\s*"\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]{0,63})/.exec(body);
  return inQuery?.[1] ?? 'anonymous';
}

/** Starts the SERVER span of one HTTP request (`POST /graphql`, `POST /internal/rpc/{method}`); it ends with the response. */
function serverSpan(req: IncomingMessage, res: ServerResponse, path: string) {
  const route = path.startsWith('/internal/rpc/') ? '/internal/rpc/{method}' : path;
  const method = req.method ?? 'GET';
  const local = req.socket.localPort;
  const started = startSpan(`${method} ${route}`, {
    kind: SpanKind.SERVER,
    parent: contextFrom(req.headers),
    attributes: {
      'http.request.method': method,
      'url.path': path,
      'url.scheme': 'http',
      'http.route': route,
      ...(local ? { 'server.port': local } : {}),
      ...(path !== route ? { 'rpc.method': path.slice('/internal/rpc/'.length) } : {}),
    },
  });
  if (!started) return undefined;
  const { span, ctx } = started;
  const end = () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) failSpan(span, new Error(`HTTP ${res.statusCode}`));
    span.end();
  };
  res.once('finish', end);
  res.once('close', () => {
    if (!res.writableFinished) {
      failSpan(span, new Error('connection closed'));
      span.end();
    }
  });
  return ctx;
}

/** The GraphQL operation's type and name on the request's span (semantic conventions for GraphQL servers). */
const operationAttributes = {
  async requestDidStart() {
    return {
      async didResolveOperation(rc: { operationName?: string | null; operation?: { operation: string } | null }) {
        annotate({
          'graphql.operation.type': rc.operation?.operation ?? 'query',
          ...(rc.operationName ? { 'graphql.operation.name': rc.operationName } : {}),
        });
      },
    };
  },
};

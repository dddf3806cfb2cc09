import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApolloServer, type BaseContext } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { fail, maskError } from '@nvcf/errors';
import { tenantFrom, TENANT_HEADER, type TenantContext } from './context.js';
import { discardBody, sendJson, graphqlError, BodyTooLarge, listen, closeServer } from '@nvcf/http';
import { RequestMetrics, processMetrics } from '@nvcf/service';
import { build, type DisposalStack } from '@nvcf/lifecycle';
import { inputLimitsPlugin } from './input-limits-plugin.js';
import { createLogger, withLogContext, type Logger } from '@nvcf/logging';
import { context } from '@nvcf/telemetry';
import { graphqlRoute, rpcRoute, type Route, type RpcHandlerMap } from './routes.js';
import { operationAttributes, serverSpan } from './spans.js';
import { ServingPhase } from '@nvcf/lifecycle';

/** The serving side of an RPC contract (method → input and output, e.g. IcmsRpc): one typed handler per method. */
export type RpcHandlers<R extends { [M in keyof R]: { input: unknown; output: unknown } }> = {
  [M in keyof R]: (tenant: string, input: R[M]['input']) => Promise<R[M]['output']>;
};

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
  const metricsPrefix = `nvcf_${opts.name.replace(/\W/g, '_')}`;
  const requests = new RequestMetrics(metricsPrefix);
  const processInfo = processMetrics(metricsPrefix);
  const serving = new ServingPhase(opts.ready);
  const common = { name: opts.name, secret: opts.secret, requests, maxBodyBytes };
  const server = createServer(
    requestListener({
      serving,
      log,
      maxBodyBytes,
      metrics: () => requests.render() + processInfo() + (opts.metrics?.() ?? ''),
      graphql: graphqlRoute({ ...common, apollo, context: opts.context }),
      rpc: rpcRoute({ ...common, rpc: opts.rpc, log }),
    }),
  );
  const subscriptions = opts.subscriptions ? serveSubscriptions(server, opts, stack) : undefined;

  const url = await listen(server, opts.port ?? 0, opts.host);
  serving.listening();
  const running: RunningSubgraph = {
    name: opts.name,
    url,
    graphqlUrl: `${url}/graphql`,
    drain: (graceMs) =>
      serving.drain(async () => {
        // subscriptions first: they would hold the server open past the grace
        await subscriptions?.cleanup.dispose();
        subscriptions?.wss.close();
        await closeServer(server, { graceMs });
        await apollo.stop();
      }),
    dispose: () => running.drain(0),
    [Symbol.asyncDispose]: () => running.dispose(),
  };
  return running;
}

interface Routes {
  serving: ServingPhase;
  log: Logger;
  maxBodyBytes: number;
  metrics: () => string;
  graphql: Route;
  rpc: (req: IncomingMessage, res: ServerResponse, method: string) => Promise<void>;
}

/** Routes one request (probes, metrics, GraphQL, RPC) inside its SERVER span and its request id's log context. */
function requestListener(o: Routes) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const run = async () => {
      if (path === '/health') return sendJson(res, 200, { status: 'ok' });
      if (path === '/ready') {
        const { status, body } = o.serving.readiness();
        return sendJson(res, status, body);
      }
      if (path === '/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        return res.end(o.metrics());
      }
      if (path === '/graphql') return o.graphql(req, res);
      if (path.startsWith('/internal/rpc/') && req.method === 'POST')
        return o.rpc(req, res, path.slice('/internal/rpc/'.length));
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
            endAfter: discardBody(req, o.maxBodyBytes),
          },
        );
      o.log.error('request failed', err);
      if (!res.headersSent) sendJson(res, 500, graphqlError('INTERNAL_SERVER_ERROR', 'Internal server error'));
    });
  };
}

/** graphql-ws on the server's /graphql, for a tenant asserted in the connection params. */
function serveSubscriptions<C extends TenantContext>(server: Server, opts: SubgraphOptions<C>, stack: DisposalStack) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  stack.defer(() => wss.close());
  const cleanup = useServer<Record<string, unknown>, { tenant?: string }>(
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
  stack.defer(() => cleanup.dispose());
  return { wss, cleanup };
}

export { fail };

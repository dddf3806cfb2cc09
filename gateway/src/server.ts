import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import { withSubgraphUrls, readSupergraph, type SubgraphName } from '@nvcf/schema';
import type { TokenVerifier } from '@nvcf/auth';
import { listen, closeServer, sendJson } from '@nvcf/subgraph-kit';
import { authenticate } from './auth.js';
import { createRuntime } from './runtime.js';

export interface GatewayOptions {
  subgraphs: Record<SubgraphName, string>;
  verify: TokenVerifier;
  secret: string;
  port?: number;
  host?: string;
  graphiql?: boolean;
  /** supergraph SDL; defaults to the committed one */
  supergraph?: string;
}

export interface RunningGateway extends AsyncDisposable {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  /** stop taking work, close subscriptions (clients resume elsewhere), then close */
  dispose(): Promise<void>;
}

export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const runtime = createRuntime({
    supergraph: withSubgraphUrls(opts.supergraph ?? readSupergraph(), opts.subgraphs),
    verify: opts.verify, secret: opts.secret, wsSubgraphs: ['nvca-status'], graphiql: opts.graphiql,
  });
  // load the supergraph before listening: the first WebSocket operation fails otherwise
  await runtime.getSchema();
  let draining = false;

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (path === '/ready') return draining ? sendJson(res, 503, { status: 'draining' }) : sendJson(res, 200, { status: 'ready' });
    if (draining) return sendJson(res, 503, { errors: [{ message: 'gateway is shutting down; retry on another replica', extensions: { code: 'UNAVAILABLE' } }] }, { connection: 'close' });
    return runtime(req, res);
  });

  const wss = new WebSocketServer({ server, path: '/graphql' });
  const ws = useServer<Record<string, unknown>, { tenant?: string; request?: unknown; socket?: any }>({
    ...getGraphQLWSOptions(runtime as any, (ctx: any) => ({ req: ctx.extra?.request, socket: ctx.extra?.socket, tenant: ctx.extra?.tenant })),
    onConnect: async (ctx: any) => {
      try {
        ctx.extra.tenant = await authenticate(opts.verify, ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization);
        return true;
      } catch (err) {
        ctx.extra.socket?.close(4401, `UNAUTHENTICATED: ${(err as Error).message}`.slice(0, 120));
        return false;
      }
    },
  } as any, wss);

  const url = await listen(server, opts.port ?? 0, opts.host);
  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= (async () => {
    draining = true;
    // 1001 Going Away: clients reconnect (to another replica) and resume from their cursor
    for (const client of wss.clients) client.close(1001, 'gateway shutting down');
    await ws.dispose();
    wss.close();
    await (runtime as any).dispose?.();
    await closeServer(server);
  })());
  return { url, graphqlUrl: `${url}/graphql`, wsUrl: `${url.replace('http', 'ws')}/graphql`, dispose, [Symbol.asyncDispose]: dispose };
}

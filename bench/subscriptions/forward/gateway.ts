import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import type { ServerOptions, Context, ConnectionInitMessage } from 'graphql-ws';
import { getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import { bearer, type Principal, type TokenVerifier } from '@nvcf/auth';
import { closeServer, listen } from '@nvcf/http';
import { createRuntime, defaultLimits } from '@nvcf/gateway';
import { readSupergraph, withSubgraphUrls, type SubgraphName } from '@nvcf/schema';

type Payload = ConnectionInitMessage['payload'];
const UPSTREAM_LAZY_CLOSE_MS = 3000;
type WsExtra = Extra & { principal?: Principal };

export interface ForwardingGateway extends AsyncDisposable {
  /** graphql-transport-ws endpoint */
  wsUrl: string;
  dispose(): Promise<void>;
}

/**
 * The subscription benchmark's baseline, the conventional federated path: the gateway's Hive
 * runtime forwards every subscription to nvca-status over graphql-ws and resolves each event's
 * Instance fields through the query plan. It has none of what the gateway's own fan-out adds
 * (resume, conflation, per-connection limits), so it lives here and not in the product; the
 * runtime is the gateway's own, so the tenant reaches the subgraphs signed exactly as in production.
 */
export async function startForwardingGateway(opts: {
  subgraphs: Record<SubgraphName, string>;
  secret: string;
  verify: TokenVerifier;
  port?: number;
  host?: string;
}): Promise<ForwardingGateway> {
  const runtime = createRuntime({
    supergraph: withSubgraphUrls(readSupergraph(), opts.subgraphs),
    secret: opts.secret,
    wsSubgraphs: ['nvca-status'],
    subgraphTimeoutMs: defaultLimits.requestTimeoutMs,
  });
  // load the supergraph before listening: the first WebSocket operation fails otherwise
  await runtime.getSchema();
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: defaultLimits.maxBodyBytes });
  const hive: ServerOptions<Payload, WsExtra> = getGraphQLWSOptions(runtime, (ctx: Context<Payload, WsExtra>) => ({
    req: ctx.extra.request,
    socket: ctx.extra.socket,
    tenant: ctx.extra.principal?.tenant,
    principal: ctx.extra.principal,
  }));
  const ws = useServer<Payload, { principal?: Principal }>(
    {
      ...hive,
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        const token = typeof authorization === 'string' ? bearer(authorization) : undefined;
        ctx.extra.principal = token ? await opts.verify(token).catch(() => undefined) : undefined;
        return !!ctx.extra.principal;
      },
    },
    wss,
  );
  const url = await listen(server, opts.port ?? 0, opts.host);
  const dispose = async () => {
    for (const client of wss.clients) client.close(1001, 'gateway shutting down');
    await ws.dispose();
    wss.close();
    await closeServer(server);
    await runtime.dispose();
    // the runtime's upstream graphql-ws client closes its socket lazily, on a timer
    // (@graphql-mesh/transport-ws's lazyCloseTimeout) that dispose() does not clear: wait it out,
    // so nothing of this gateway outlives dispose()
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_LAZY_CLOSE_MS));
  };
  return { wsUrl: `${url.replace('http', 'ws')}/graphql`, dispose, [Symbol.asyncDispose]: dispose };
}

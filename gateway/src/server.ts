import { createServer } from 'node:http';
import { withSubgraphUrls, readSupergraph, type SubgraphName } from '@nvcf/schema';
import type { TokenVerifier } from '@nvcf/auth';
import type { Bus } from '@nvcf/messaging';
import type { StreamLimits } from '@nvcf/status-stream';
import { listen, closeServer, sendJson, BodyTooLarge, graphqlError } from '@nvcf/subgraph-kit';
import { createLogger } from '@nvcf/logging';
import { createRuntime } from './runtime.js';
import { attachWebSocket } from './ws.js';
import { pipeResponse } from './pipe.js';
import { StatusService } from './status/service.js';

const log = createLogger('gateway');

export interface GatewayOptions {
  subgraphs: Record<SubgraphName, string>;
  verify: TokenVerifier;
  /** signs the tenant for subgraphs */
  secret: string;
  /** the status stream every replica reads once */
  bus: Bus;
  /** signs resume cursors; shared by every replica */
  cursorSecret: string;
  port?: number;
  host?: string;
  graphiql?: boolean;
  /** supergraph SDL; defaults to the committed one */
  supergraph?: string;
  statusLimits?: Partial<StreamLimits>;
  maxSubscriptionsPerConnection?: number;
  /**
   * `gateway` (default): this replica serves instanceStatusChanged from its own read of the
   * stream. `forward`: the conventional federated path, forwarded to nvca-status over
   * graphql-ws (kept for comparison; see gateway/README.md).
   */
  statusPath?: 'gateway' | 'forward';
}

export interface RunningGateway extends AsyncDisposable {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  status: StatusService;
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
  const status = new StatusService({
    bus: opts.bus, cursorSecret: opts.cursorSecret, verify: opts.verify, limits: opts.statusLimits,
    // in-process, with the tenant as server context: never reachable by a client
    execute: async (tenant, query, variables) => (await runtime.fetch('http://gateway.internal/graphql', {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query, variables }),
    }, { tenant })).json(),
  });
  await status.start();
  let draining = false;
  const ours = (opts.statusPath ?? 'gateway') === 'gateway';

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (path === '/ready') return draining ? sendJson(res, 503, { status: 'draining' }) : sendJson(res, 200, { status: 'ready' });
    if (path === '/metrics') { res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }); return res.end(status.stream.metrics.render()); }
    if (draining) return sendJson(res, 503, graphqlError('UNAVAILABLE', 'gateway is shutting down; retry on another replica'), { connection: 'close' });
    if (ours && req.method === 'POST' && path === '/graphql' && (req.headers.accept ?? '').includes('text/event-stream')) {
      void (async () => {
        const r = await status.trySse(req, res);
        if (r.handled) return;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        await pipeResponse(res, await runtime.fetch(`http://gateway.internal${req.url}`, { method: 'POST', headers, body: r.body }));
      })().catch((err) => {
        if (err instanceof BodyTooLarge) return sendJson(res, 413, graphqlError('LIMIT_EXCEEDED', err.message));
        log.error('SSE request failed', err);
        if (!res.headersSent) sendJson(res, 500, graphqlError('INTERNAL_SERVER_ERROR', 'Internal server error')); else res.end();
      });
      return;
    }
    return runtime(req, res);
  });

  const ws = attachWebSocket(server, runtime, opts.verify, ours ? status : null, opts.maxSubscriptionsPerConnection ?? 100);
  const url = await listen(server, opts.port ?? 0, opts.host);
  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= (async () => {
    draining = true;
    // 1001 Going Away: clients reconnect (to another replica) and resume from their cursor
    for (const client of ws.wss.clients) client.close(1001, 'gateway shutting down');
    await status.stop();
    await ws.dispose();
    ws.wss.close();
    await (runtime as any).dispose?.();
    await closeServer(server);
  })());
  return { url, graphqlUrl: `${url}/graphql`, wsUrl: `${url.replace('http', 'ws')}/graphql`, status, dispose, [Symbol.asyncDispose]: dispose };
}

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readSupergraph, type SubgraphName } from '@nvcf/schema';
import type { Principal, TokenVerifier } from '@nvcf/auth';
import type { Bus } from '@nvcf/bus';
import type { StreamLimits } from '@nvcf/status-stream';
import { listen, closeServer, sendJson, graphqlError } from '@nvcf/http';
import { DisposalStack, ServingPhase, isClosing } from '@nvcf/lifecycle';
import { createLogger } from '@nvcf/logging';
import { RequestMetrics, processMetrics } from '@nvcf/service';
import { createRuntime } from './runtime.js';
import { attachWebSocket } from './ws.js';
import { StatusService } from './status/service.js';
import type { Execute } from './status/entities.js';
import { FrontDoor } from './front.js';
import { OperationGuard } from './guard/guard.js';
import {
  TrustedDocuments,
  loadTrustedDocuments,
  defaultTrustedDocumentsFile,
  type TrustedMode,
} from './guard/trusted.js';
import { defaultLimits, type GatewayLimits } from './limits.js';
import { DeprecationMetrics, RefusalMetrics, SupergraphMetrics } from './metrics.js';
import { prepareSupergraph } from './supergraph/prepare.js';
import { SupergraphReloader, type ReloadResult } from './supergraph/reloader.js';
import { watchFile } from './supergraph/watch.js';
import { WebPages } from './web.js';

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
  /**
   * /metrics lists tenants and their activity, so it is served on its own listener, on
   * loopback by default (a Prometheus sidecar or a port the cluster keeps private). 0: any free port.
   */
  metricsPort?: number;
  metricsHost?: string;
  /** the GraphQL IDE at GET /graphql (Accept: text/html), bundled by @nvcf/console: no CDN */
  graphiql?: boolean;
  /** the web console at /console/ */
  console?: boolean;
  /**
   * What the IDE and the console are told about signing in (default jwt). In `dev` mode the
   * published development tokens among `devTokens` (the ones this gateway accepts) are pre-filled.
   */
  pageAuth?: { mode: 'dev' | 'jwt'; devTokens?: Record<string, string> };
  /** the built pages; default @nvcf/console's dist/web */
  webDir?: string;
  /**
   * `authenticated` (the embedded default): every authenticated caller may introspect.
   * `claim` (production): only callers whose token grants it (Principal.introspection); the
   * others get FORBIDDEN and no "Did you mean" hints in validation errors.
   */
  introspection?: 'authenticated' | 'claim';
  /** supergraph SDL; defaults to the committed one (or `supergraphFile`'s) */
  supergraph?: string;
  /**
   * The supergraph's file (SUPERGRAPH_FILE): read at start unless `supergraph` is given, read again
   * by `reload()`, and watched (a ConfigMap update reaches the gateway without a restart).
   */
  supergraphFile?: string;
  /** watch `supergraphFile` (default true); `reload()` (SIGHUP) works either way */
  watchSupergraph?: boolean;
  /** quiet time after a change in the file's directory before it is read (default 250 ms) */
  supergraphDebounceMs?: number;
  statusLimits?: Partial<StreamLimits>;
  /** request size, cost, time and rate limits (docs/limits.md) */
  limits?: Partial<GatewayLimits>;
  maxSubscriptionsPerConnection?: number;
  /**
   * Trusted documents (docs/schema.md): `allow` (default) runs a manifest document by its id and
   * ad-hoc documents too; `require` runs manifest documents only (PERSISTED_QUERY_REQUIRED, before
   * any parsing); `off` looks no id up.
   */
  trustedDocuments?: TrustedMode;
  /** the manifest, `{ "sha256:<hex>": "<document>" }`; default the generated client/persisted-documents.json */
  trustedDocumentsFile?: string;
  /** the manifest already read (readTrustedDocuments); then the file is not read again */
  trustedManifest?: ReadonlyMap<string, string>;
}

export interface RunningGateway extends AsyncDisposable {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  /** base URL of the metrics listener (GET /metrics) */
  metricsUrl: string;
  status: StatusService;
  /**
   * Loads `supergraph`, or `supergraphFile` again: served from the next operation on if it is
   * valid, refused otherwise (the old one serves on, readiness unchanged). Operations in flight
   * finish on the plan they started with; open status subscriptions stay open unless their
   * selection no longer validates, which ends them with SCHEMA_CHANGED.
   */
  reload(supergraph?: string): Promise<ReloadResult>;
  /** sha256 of the supergraph served, as read */
  supergraphSha256(): string;
  /**
   * Not ready from now on (503, new requests refused with UNAVAILABLE), WebSockets closed with
   * 1001 and SSE streams ended without `complete` (clients resume elsewhere from their cursor),
   * queries and mutations in flight finish for up to `graceMs`, then everything is closed.
   */
  drain(graceMs: number): Promise<void>;
  dispose(): Promise<void>;
}

export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const stack = new DisposalStack();
  try {
    const limits: GatewayLimits = { ...defaultLimits, ...opts.limits };
    const initial = prepareSupergraph(
      opts.supergraph ?? (opts.supergraphFile ? readFileSync(opts.supergraphFile, 'utf8') : readSupergraph()),
      opts.subgraphs,
    );
    const runtime = createRuntime({
      supergraph: initial.sdl,
      secret: opts.secret,
      wsSubgraphs: ['nvca-status'],
      subgraphTimeoutMs: limits.requestTimeoutMs,
      // no operation outlives the request timeout: past it the old plan has nobody left to serve
      reloadDrainMs: limits.requestTimeoutMs + 1000,
    });
    stack.defer(async () => {
      await runtime.dispose();
    });
    // load the supergraph before listening: the first WebSocket operation fails otherwise
    const schema = await runtime.getSchema();
    const status = new StatusService({
      bus: opts.bus,
      cursorSecret: opts.cursorSecret,
      limits: opts.statusLimits,
      schema: initial.publicSchema,
      // in-process, with the tenant as server context: never reachable by a client
      execute: async (tenant, query, variables) => {
        const res = await runtime.fetch(
          'http://gateway.internal/graphql',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ query, variables }),
          },
          { tenant },
        );
        // the gateway's own answer to a query it built from the public schema (EntityFetcher's)
        return (await res.json()) as Awaited<ReturnType<Execute>>;
      },
    });
    const serving = new ServingPhase();
    /** how long requests in flight may finish once a drain closes the server: the drain's grace */
    const closing = { graceMs: 0 };
    const requests = new RequestMetrics('nvcf_gateway');
    const processInfo = processMetrics('nvcf_gateway');
    const refusals = new RefusalMetrics();
    const deprecations = new DeprecationMetrics();
    const trustedMode = opts.trustedDocuments ?? 'allow';
    const trusted = new TrustedDocuments(
      trustedMode,
      trustedMode === 'off'
        ? undefined
        : (opts.trustedManifest ?? loadTrustedDocuments(opts.trustedDocumentsFile ?? defaultTrustedDocumentsFile())),
    );
    const restricted = opts.introspection === 'claim';
    const web =
      opts.graphiql || opts.console
        ? new WebPages({
            ide: !!opts.graphiql,
            console: !!opts.console,
            auth: opts.pageAuth ?? { mode: 'jwt' },
            dir: opts.webDir,
          })
        : null;
    const front = new FrontDoor({
      runtime,
      limits,
      status,
      refused: (code) => refusals.count(code),
      requests,
      trusted,
      deprecated: (fields, operation) => deprecations.count(fields, operation),
      verify: restricted
        ? opts.verify
        : async (token): Promise<Principal> => ({ ...(await opts.verify(token)), introspection: true }),
      guard: new OperationGuard(schema, limits),
      ide: web && opts.graphiql ? (req, res) => web.serveIde(req, res) : null,
    });

    const supergraphMetrics = new SupergraphMetrics(initial.hash);
    const reloader = new SupergraphReloader({
      subgraphs: opts.subgraphs,
      file: opts.supergraphFile,
      initial,
      replace: (sdl) => runtime.replaceSupergraph(sdl),
      // one turn: no operation is admitted by one schema and checked against the other
      switchTo: (next, publicSchema) => {
        front.useGuard(new OperationGuard(next, limits));
        return status.schema.replace(publicSchema);
      },
      metrics: supergraphMetrics,
    });
    const reloadFile = () =>
      reloader.reload().catch((err: unknown) => {
        log.error('supergraph reload failed', err);
      });
    if (opts.supergraphFile && opts.watchSupergraph !== false) {
      const watcher = watchFile(opts.supergraphFile, () => void reloadFile(), opts.supergraphDebounceMs);
      stack.defer(() => watcher.close());
    }
    stack.defer(() => reloader.idle());

    const metricsServer = createServer((req: IncomingMessage, res: ServerResponse) => {
      if ((req.url ?? '/').split('?')[0] !== '/metrics') return sendJson(res, 404, { error: 'GET /metrics' });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        requests.render() +
          refusals.render() +
          deprecations.render() +
          supergraphMetrics.render() +
          status.metrics() +
          processInfo(),
      );
    });
    stack.defer(() => closeServer(metricsServer));
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/health') return sendJson(res, 200, { status: 'ok' });
      if (path === '/ready') {
        const r = serving.readiness();
        return sendJson(res, r.status, r.body);
      }
      if (isClosing(serving.phase))
        return sendJson(res, 503, graphqlError('UNAVAILABLE', 'gateway is shutting down; retry on another replica'), {
          connection: 'close',
        });
      if (path === '/graphql') return front.handle(req, res);
      if (web?.handle(req, res, path)) return;
      sendJson(res, 404, graphqlError('NOT_FOUND', `no route ${path}; the API is at /graphql`));
    });
    stack.defer(() => closeServer(server, { graceMs: closing.graceMs }));
    const ws = attachWebSocket(server, runtime, front, status, {
      maxPerConnection: opts.maxSubscriptionsPerConnection ?? 100,
      maxPayload: limits.maxBodyBytes,
    });
    stack.defer(() => {
      ws.wss.close();
    });
    stack.defer(() => ws.dispose());
    // disposed first: feeds end (SSE without `complete`), so clients resume on another replica
    await status.start();
    stack.defer(() => status.stop());
    const url = await listen(server, opts.port ?? 0, opts.host);
    const metricsUrl = await listen(metricsServer, opts.metricsPort ?? 0, opts.metricsHost ?? '127.0.0.1');

    serving.listening();

    const moved = stack.move();
    const drain = (graceMs: number) =>
      serving.drain(async () => {
        closing.graceMs = graceMs;
        // 1001 Going Away: clients reconnect (to another replica) and resume from their cursor
        ws.close(1001, 'gateway shutting down');
        await moved.disposeAsync();
      });
    const dispose = () => drain(0);
    return {
      url,
      graphqlUrl: `${url}/graphql`,
      wsUrl: `${url.replace('http', 'ws')}/graphql`,
      metricsUrl,
      status,
      reload: (supergraph) => reloader.reload(supergraph),
      supergraphSha256: () => reloader.sha256,
      drain,
      dispose,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (err) {
    await stack.disposeAsync();
    throw err;
  }
}

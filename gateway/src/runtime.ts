import type { GraphQLSchema } from 'graphql';
import { createGatewayRuntime, type GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import httpTransport from '@graphql-mesh/transport-http';
import { tenantSigner, TENANT_HEADER, type Principal } from '@nvcf/auth';
import { fail, maskError } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';
import { observabilityPlugins } from './observability.js';

const log = createLogger('gateway');

export interface RuntimeOptions {
  /** the supergraph SDL (subgraph URLs filled in); `replaceSupergraph` serves another one later */
  supergraph: string;
  /**
   * How long operations that started on a supergraph may run on it after a newer one replaced it
   * (their plan and subgraph connections stay until they finish, or this long); default 30 s.
   */
  reloadDrainMs?: number;
  /** signs the tenant for subgraphs */
  secret: string;
  /** subgraphs whose subscriptions go over graphql-ws */
  wsSubgraphs: string[];
  /**
   * How long one subgraph fetch may take. A fetch is shared by the identical calls of one tenant
   * made while it runs, and no caller's abort stops it: without this bound a subgraph that never
   * answers would hold every later identical call too.
   */
  subgraphTimeoutMs: number;
}

/** What the front door vouches for; the engine never authenticates by itself. */
export interface ServerContext {
  tenant: string;
  principal?: Principal;
}

/**
 * Puts the tenant the front door authenticated (HTTP, SSE, WebSocket alike) in the context,
 * with the assertion for the subgraph whose subscriptions go over graphql-ws. A context
 * without a tenant never reaches a subgraph.
 */
function tenantPlugin(statusAssertion: (tenant: string) => string): GatewayPlugin {
  return {
    onContextBuilding({
      context,
      extendContext,
    }: {
      context: Partial<ServerContext>;
      extendContext: (c: Record<string, unknown>) => void;
    }) {
      const tenant = context.tenant;
      if (!tenant) throw fail('UNAUTHENTICATED', 'send Authorization: Bearer <token>', { http: { status: 401 } });
      extendContext({ tenantAssertion: statusAssertion(tenant) });
    },
  } as GatewayPlugin;
}

/**
 * The HTTP transport with the tenant assertion set by a function, minted for the subgraph it
 * goes to (a header replayed elsewhere is refused): a `{context.…}` header template would be
 * parsed and interpolated again on every call, on every query's hot path. The
 * assertion is part of the in-flight deduplication key, so identical subgraph calls of one tenant
 * made at the same time share one fetch, and two tenants never do; nothing that differs per
 * request may be a header here, or no call would ever be shared (the request id is set on the
 * fetch itself, by observability.ts).
 */
function tenantHttp(sign: (tenant: string, audience: string) => string) {
  return {
    getSubgraphExecutor: (payload: Parameters<typeof httpTransport.getSubgraphExecutor>[0]) =>
      httpTransport.getSubgraphExecutor({
        ...payload,
        transportEntry: {
          ...payload.transportEntry,
          options: {
            ...payload.transportEntry.options,
            headers: (req?: { context?: Partial<ServerContext> }) => ({
              [TENANT_HEADER]: req?.context?.tenant ? sign(req.context.tenant, payload.subgraphName) : '',
            }),
          } as never,
        },
      }),
  };
}

/**
 * Bounds every subgraph fetch. Set on the fetch, made once per call actually sent, not as the
 * executor's `timeout`: that one builds a timer and a combined signal for every subgraph execution,
 * shared or not, which a call that joins a shared fetch never needs.
 */
function subgraphTimeout(ms: number): GatewayPlugin {
  return {
    onFetch({
      options,
      setOptions,
    }: {
      options: { signal?: AbortSignal | null };
      setOptions: (o: { signal?: AbortSignal }) => void;
    }) {
      const timeout = AbortSignal.timeout(ms);
      setOptions({ ...options, signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout });
    },
  } as GatewayPlugin;
}

/** The runtime refused a supergraph (the query planner could not be built from it); the old one serves on. */
export class SupergraphRejected extends Error {
  override name = 'SupergraphRejected';
}

export function createRuntime(opts: RuntimeOptions) {
  const sign = tenantSigner(opts.secret);
  let supergraph = opts.supergraph;
  // the runtime logs and swallows a planner failure (its old graph serves on): kept here to report it
  let planFailure: unknown;
  const planner = (o: Parameters<typeof unifiedGraphHandler>[0]) =>
    unifiedGraphHandler(o).catch((err: unknown) => {
      planFailure = err;
      throw err;
    });
  const subscriptionsOverWs = Object.fromEntries(
    opts.wsSubgraphs.map((name) => [
      name,
      {
        options: {
          subscriptions: {
            kind: 'ws',
            options: { connectionParams: { [TENANT_HEADER]: '{context.tenantAssertion}' } },
          },
        },
      },
    ]),
  );
  const http = tenantHttp(sign);
  const wsAudience = opts.wsSubgraphs[0] ?? 'nvca-status';
  const runtime = createGatewayRuntime({
    // a function: the runtime loads it again on invalidateUnifiedGraph (no polling interval: only then)
    supergraph: () => supergraph,
    unifiedGraphHandler: planner,
    // an operation keeps the generation (plan, executor, subgraph connections) it started on
    gracefulSchemaReload: { drainTimeout: opts.reloadDrainMs ?? 30_000 },
    // every other kind as the runtime resolves it by default
    transports: (kind: string) => (kind === 'http' ? http : import(`@graphql-mesh/transport-${kind}`)),
    transportEntries: {
      '*.http': {},
      ...subscriptionsOverWs,
    },
    // the runtime's GraphiQL loads from a CDN; the gateway serves its own bundled IDE (web.ts)
    graphiql: false,
    landingPage: false,
    // Hive's logger reports every user error as ERR; ours logs only unexpected ones (maskError)
    logging: false,
    maskedErrors: {
      maskError: (err: unknown) => {
        const e = err as Parameters<typeof maskError>[0];
        return maskError(e, (x) => log.error('unexpected error', x), err, { downstream: true, markUnexpected: true });
      },
    },
    plugins: (ctx) => [
      tenantPlugin((tenant) => sign(tenant, wsAudience)),
      subgraphTimeout(opts.subgraphTimeoutMs),
      ...observabilityPlugins(ctx),
    ],
  });

  /**
   * Serves `sdl` from the next operation on, once the runtime has built its query planner and
   * executor from it; operations already running finish on the previous one. Resolves with the
   * new schema, or rejects with SupergraphRejected and the previous supergraph still served.
   */
  async function replaceSupergraph(sdl: string): Promise<GraphQLSchema> {
    const before = await runtime.getSchema();
    const previous = supergraph;
    supergraph = sdl;
    planFailure = undefined;
    let failure: unknown;
    try {
      // typed void, but it is the manager's load, which settles once the new generation is current
      await (runtime.invalidateUnifiedGraph() as unknown);
    } catch (err) {
      failure = err;
    }
    const after = await runtime.getSchema();
    if (after !== before && failure === undefined) return after;
    // the runtime kept its current graph: so does the function it loads from
    supergraph = previous;
    const why = failure ?? planFailure;
    throw new SupergraphRejected(
      `the query planner refused it: ${why instanceof Error ? why.message : 'the runtime kept the previous supergraph'}`,
      { cause: why },
    );
  }
  return Object.assign(runtime, { replaceSupergraph });
}
export type Runtime = ReturnType<typeof createRuntime>;

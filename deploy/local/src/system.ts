import { randomBytes } from 'node:crypto';
import { createMemoryBus, type Bus, type StartAt } from '@nvcf/bus';
import { allStreams, Streams } from '@nvcf/contracts';
import { createNvcfServer, createMemoryNvcfStore, httpIcmsClient, type NvcfStore } from '@nvcf/subgraph-nvcf';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { createIcmsServer, createMemoryIcmsStore, type ClusterRecord, type IcmsStore } from '@nvcf/subgraph-icms';
import { createStatusServer, createMemoryStatusStore, type StatusStore } from '@nvcf/subgraph-nvca-status';
import { createNvctServer, createMemoryTaskStore, httpPlaceTask, type TaskStore } from '@nvcf/subgraph-nvct';
import type { SubgraphName } from '@nvcf/schema';
import { createSimulatedCluster, type Agent, type ClusterDriver } from '@nvcf/agent';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
  type GatewayLimits,
  type TrustedMode,
} from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS, type TokenVerifier } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
import { demoClusters } from './seed.js';
import { AgentFleet } from './agents.js';

export interface Backends {
  bus: Bus;
  nvcfStore: NvcfStore;
  icmsStore: IcmsStore;
  statusStore: StatusStore;
  taskStore: TaskStore;
  /** closes connections (the bus included) */
  dispose(): Promise<void>;
}

export interface SystemOptions {
  port?: number;
  host?: string;
  clusters?: ClusterRecord[];
  verify?: TokenVerifier;
  /** ports to plug in; default: the embedded in-memory implementations */
  backends?: Backends;
  driver?: (clusterId: string) => ClusterDriver;
  sim?: { startDelayMs?: number; updateDelayMs?: number; operatorDelayMs?: number };
  revisionDeadlineMs?: number;
  deadlineSweepMs?: number;
  agentBackoff?: { initialMs: number; maxMs: number; factor: number };
  agentAckWaitMs?: number;
  /** how often agents re-check their cluster's operator CRDs (0: only when an apply meets a missing one) */
  agentOperatorCheckMs?: number;
  /** the GraphQL IDE at GET /graphql */
  graphiql?: boolean;
  /** the web console at /console/ */
  console?: boolean;
  /** what the IDE and the console are told about signing in; default: dev with DEV_TOKENS when `verify` is the default, else jwt */
  pageAuth?: { mode: 'dev' | 'jwt'; devTokens?: Record<string, string> };
  /** the built pages; default @nvcf/console's dist/web */
  webDir?: string;
  secret?: string;
  /** the gateway's request limits (docs/limits.md); rates of 0 turn rate limiting off */
  gatewayLimits?: Partial<GatewayLimits>;
  /** the gateway's metrics listener (loopback, any free port by default) */
  metricsPort?: number;
  introspection?: 'authenticated' | 'claim';
  statusLimits?: Partial<import('@nvcf/status-stream').StreamLimits>;
  /** the gateway's trusted documents (docs/schema.md): `allow` by default, so the IDE runs any document */
  trustedDocuments?: TrustedMode;
  /** the manifest; default the generated client/persisted-documents.json */
  trustedDocumentsFile?: string;
  /** the manifest already read (the gateway's config reader read and checked it) */
  trustedManifest?: ReadonlyMap<string, string>;
  /** the gateway's supergraph file: read at start, watched and read again on `gateway.reload()` */
  supergraphFile?: string;
  /** quiet time after a change in that file's directory before it is read */
  supergraphDebounceMs?: number;
  /** how much of the status stream is kept (resume cursors older than that expire) */
  statusRetention?: { maxMsgs?: number; maxAgeMs?: number };
  /** Separate deployments sharing one NATS keep their services' durable consumers apart with it. */
  deploymentSuffix?: string;
  /**
   * Where those durables begin when first created: `first` (default) replays the status stream,
   * `new` starts at the next event: for short-lived systems on a shared stream (tests).
   */
  statusConsumerStart?: StartAt;
  /** the operator-type registry file; default deploy/operators.yaml */
  registryPath?: string;
  /**
   * `in-process` (default): one agent per cluster in this process. `external`: none here, the
   * clusters' agents run elsewhere (the fleet benchmark's agent processes, as in production).
   */
  agents?: 'in-process' | 'external';
}

export interface System extends AsyncDisposable {
  gateway: RunningGateway;
  clusters: ClusterRecord[];
  url: string;
  backends: Backends;
  agents: Map<string, Agent>;
  drivers: Map<string, ClusterDriver>;
  subgraphs: Record<SubgraphName, string>;
  /** base URLs (health, metrics) */
  services: Record<SubgraphName, string>;
  secret: string;
  /** kills a cluster's agent (work in flight is redelivered to the next one) */
  stopAgent(clusterId: string): Promise<void>;
  startAgent(clusterId: string): Promise<Agent>;
  dispose(): Promise<void>;
}

export function memoryBackends(): Backends {
  const bus = createMemoryBus();
  return {
    bus,
    nvcfStore: createMemoryNvcfStore(),
    icmsStore: createMemoryIcmsStore(),
    statusStore: createMemoryStatusStore(),
    taskStore: createMemoryTaskStore(),
    dispose: () => bus.dispose(),
  };
}

/** The names each service's durable on the status stream is taken from; replicas of one deployment share them. */
export const statusConsumers = (deploymentSuffix = '') => ({
  icms: `icms${deploymentSuffix}`,
  status: `nvca-status${deploymentSuffix}`,
  nvcf: `nvcf${deploymentSuffix}`,
});

/** The name nvct's durable on the task-report stream is taken from. */
export const taskReportConsumer = (deploymentSuffix = '') => `nvct${deploymentSuffix}`;

/** The whole control plane in one process: four subgraphs, the gateway, one agent per cluster. */
export async function startSystem(opts: SystemOptions = {}): Promise<System> {
  const stack = new DisposalStack();
  try {
    const secret = opts.secret ?? randomBytes(32).toString('base64url');
    const backends = opts.backends ?? memoryBackends();
    const { bus } = backends;
    await bus.ensureStreams(
      allStreams.map((st) =>
        st.name === Streams.status.name && opts.statusRetention ? { ...st, ...opts.statusRetention } : st,
      ),
    );
    const clusters = opts.clusters ?? demoClusters();
    const host = opts.host ?? '127.0.0.1';
    const { icms, status, nvcf, nvct, registry } = await startSubgraphs(
      opts,
      { backends, secret, host, clusters },
      stack,
    );

    const fleet = new AgentFleet({
      bus,
      makeDriver: opts.driver ?? ((clusterId) => createSimulatedCluster({ clusterId, registry, ...opts.sim })),
      agent: { backoff: opts.agentBackoff, ackWaitMs: opts.agentAckWaitMs, operatorCheckMs: opts.agentOperatorCheckMs },
    });
    // on the stack before the first agent starts: one failing to start stops those already running
    stack.use(fleet);
    if (opts.agents !== 'external') for (const c of clusters) await fleet.start(c.id);

    const subgraphs = {
      nvcf: nvcf.graphqlUrl,
      icms: icms.graphqlUrl,
      'nvca-status': status.graphqlUrl,
      nvct: nvct.graphqlUrl,
    };
    const gateway = stack.use(await startGateway(gatewayOptions(opts, { subgraphs, secret, bus, host })));
    // the gateway goes first on dispose (stack order), the bus last
    const services = stack.move();
    const dispose = () => closeSystem(services, backends);
    return {
      gateway,
      clusters,
      url: gateway.graphqlUrl,
      backends,
      agents: fleet.agents,
      drivers: fleet.drivers,
      subgraphs,
      secret,
      services: { nvcf: nvcf.url, icms: icms.url, 'nvca-status': status.url, nvct: nvct.url },
      stopAgent: (id) => fleet.stop(id),
      startAgent: (id) => fleet.start(id),
      dispose,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (err) {
    await stack.disposeAsync();
    throw err;
  }
}

interface Wiring {
  backends: Backends;
  secret: string;
  host: string;
  clusters: ClusterRecord[];
}

/** ICMS, status, NVCF and NVCT (with the operator registry they check workloads against), each on the stack the moment it listens. */
async function startSubgraphs(opts: SystemOptions, w: Wiring, stack: DisposalStack) {
  const { backends, secret, host } = w;
  const { bus } = backends;
  const consumers = statusConsumers(opts.deploymentSuffix);
  const icms = stack.use(
    await createIcmsServer({
      store: backends.icmsStore,
      bus,
      secret,
      clusters: w.clusters,
      host,
      consumerName: consumers.icms,
      consumerStart: opts.statusConsumerStart,
    }),
  );
  const status = stack.use(
    await createStatusServer({
      store: backends.statusStore,
      bus,
      secret,
      cursorSecret: secret,
      host,
      consumerName: consumers.status,
      consumerStart: opts.statusConsumerStart,
    }),
  );
  const registry = loadRegistry(opts.registryPath ?? defaultRegistryPath());
  const nvcf = stack.use(
    await createNvcfServer({
      store: backends.nvcfStore,
      bus,
      secret,
      host,
      registry,
      consumerName: consumers.nvcf,
      consumerStart: opts.statusConsumerStart,
      icms: httpIcmsClient(() => icms.url, secret),
      revisionDeadlineMs: opts.revisionDeadlineMs,
      deadlineSweepMs: opts.deadlineSweepMs,
    }),
  );
  const nvct = stack.use(
    await createNvctServer({
      store: backends.taskStore,
      bus,
      registry,
      secret,
      host,
      deadlineSweepMs: opts.deadlineSweepMs,
      placeTask: httpPlaceTask(() => icms.url, secret),
      consumerName: taskReportConsumer(opts.deploymentSuffix),
      consumerStart: opts.statusConsumerStart,
    }),
  );
  return { icms, status, nvcf, nvct, registry };
}

/** The gateway in front of the subgraphs; the IDE and the console sign in with the dev tokens unless `verify` is given. */
export function gatewayOptions(
  opts: SystemOptions,
  w: Pick<GatewayOptions, 'subgraphs' | 'secret' | 'bus' | 'host'>,
): GatewayOptions {
  return {
    subgraphs: w.subgraphs,
    verify: opts.verify ?? staticTokens(DEV_TOKENS),
    secret: w.secret,
    cursorSecret: w.secret,
    bus: w.bus,
    port: opts.port ?? 0,
    host: w.host,
    graphiql: opts.graphiql,
    console: opts.console,
    webDir: opts.webDir,
    pageAuth: opts.pageAuth ?? (opts.verify ? { mode: 'jwt' } : { mode: 'dev', devTokens: { ...DEV_TOKENS } }),
    statusLimits: opts.statusLimits,
    limits: opts.gatewayLimits,
    metricsPort: opts.metricsPort,
    introspection: opts.introspection,
    trustedDocuments: opts.trustedDocuments,
    trustedDocumentsFile: opts.trustedDocumentsFile,
    trustedManifest: opts.trustedManifest,
    supergraphFile: opts.supergraphFile,
    supergraphDebounceMs: opts.supergraphDebounceMs,
  };
}

/**
 * Disposes the services (gateway first, the agents, the subgraphs), then the backends, even when
 * a service fails to stop: a leaked connection would keep reconnecting forever.
 */
export async function closeSystem(services: DisposalStack, backends: Pick<Backends, 'dispose'>): Promise<void> {
  try {
    await services.disposeAsync();
  } finally {
    await backends.dispose();
  }
}

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DisposalStack } from '@nvcf/lifecycle';
import { startBalancer, type Balancer } from './balancer.js';
import { startService, freePort, type RunMode, type ServiceKind, type ServiceProcess } from './processes.js';
import type { ClusterRecord } from '@nvcf/subgraph-icms';
import { demoClusters } from './seed.js';
import { statusConsumers, taskReportConsumer } from './system.js';

export interface TopologyOptions {
  /** NATS_URL, CASSANDRA_CONTACT_POINTS, CASSANDRA_LOCAL_DC, NVCF_INTERNAL_SECRET(_FILE), NVCF_CURSOR_SECRET(_FILE)… */
  env: Record<string, string>;
  mode: RunMode;
  /** files the processes share (cluster list, simulated cluster state) */
  stateDir: string;
  /** the two gateway ports; 0 picks free ones */
  gatewayPorts?: [number, number];
  /** apart from the gateways every port is picked free */
  clusterSuffix?: string;
  /** the clusters ICMS registers (default the demo clusters, with `clusterSuffix`) */
  clusters?: ClusterRecord[];
  /** one agent process per cluster (default); false: the agents run elsewhere */
  agents?: boolean;
  /** node flags of every process (`--cpu-prof`) */
  nodeArgs?: string[];
  /**
   * Keeps this deployment's durable consumers on the status stream apart from other
   * deployments on the same NATS (`nvcf<suffix>`…); a new durable starts at the stream's beginning.
   */
  deploymentSuffix?: string;
  /** the environment of the gateways only (limits, auth) */
  gatewayEnv?: Record<string, string>;
  echo?: boolean;
}

export interface Topology extends AsyncDisposable {
  gateways: ServiceProcess[];
  /** what a Kubernetes Service would be: one ready-aware balancer per subgraph */
  services: Record<'nvcf' | 'icms' | 'nvca-status' | 'nvct', Balancer>;
  processes(): ServiceProcess[];
  clusters: string[];
  /**
   * Replaces one process the way a Deployment with maxSurge 1 / maxUnavailable 0 does: the new
   * one starts and becomes ready, then the old one gets SIGTERM. Agents are replaced like a
   * Recreate strategy (one agent per cluster): SIGTERM first, then the new one.
   */
  replace(
    name: string,
    onReady?: (next: ServiceProcess, old: ServiceProcess) => void,
  ): Promise<{
    old: ServiceProcess;
    next: ServiceProcess;
    exit: { code: number | null; signal: NodeJS.Signals | null; ms: number };
  }>;
  kill(name: string): Promise<void>;
  /** Starts again a process that was killed, as a Deployment's controller does, and puts it back behind its Service. */
  revive(name: string): Promise<ServiceProcess>;
  dispose(): Promise<void>;
}

/**
 * The production topology on one machine, each service its own OS process: two gateway
 * replicas, one process per subgraph plus a second nvcf replica (their work-queue consumers
 * compete), and one agent per demo cluster (simulated driver, its state in a file).
 */
export async function startTopology(o: TopologyOptions): Promise<Topology> {
  const stack = new DisposalStack();
  try {
    mkdirSync(o.stateDir, { recursive: true });
    const clusters = o.clusters ?? demoClusters(o.clusterSuffix ?? '');
    const clustersFile = path.join(o.stateDir, 'clusters.json');
    writeFileSync(clustersFile, JSON.stringify(clusters, null, 2));
    const live = new Map<string, ServiceProcess>();
    const envOf = new Map<string, { kind: ServiceKind; env: Record<string, string>; port: () => Promise<number> }>();
    /** `spawned` sees every process spawned for `name`, ready or not */
    const launch = (name: string, port: () => Promise<number>, spawned?: (p: ServiceProcess) => void) => {
      const spec = envOf.get(name)!;
      return startService(
        {
          name,
          kind: spec.kind,
          port,
          metricsPort: spec.kind === 'gateway' ? freePort : undefined,
          env: { ...o.env, ...spec.env },
          mode: o.mode,
          echo: o.echo,
          nodeArgs: o.nodeArgs,
        },
        { spawned },
      );
    };
    const start = (name: string) => launch(name, envOf.get(name)!.port, (p) => live.set(name, p));
    stack.defer(async () => {
      await Promise.all([...live.values()].map((p) => p.stop('SIGTERM')));
    });
    const define = (
      name: string,
      kind: ServiceKind,
      env: Record<string, string>,
      port: () => Promise<number> = freePort,
    ) => envOf.set(name, { kind, env, port });

    const consumer = statusConsumers(o.deploymentSuffix);
    define('icms', 'icms', { ICMS_CLUSTERS_FILE: clustersFile, STATUS_CONSUMER_NAME: consumer.icms });
    define('nvca-status', 'nvca-status', { STATUS_CONSUMER_NAME: consumer.status });
    const [icms, status] = await Promise.all([start('icms'), start('nvca-status')]);
    const services = {
      icms: stack.use(await startBalancer({ backends: [icms.url] })),
      'nvca-status': stack.use(await startBalancer({ backends: [status.url] })),
    } as Topology['services'];
    // nvct places tasks through ICMS: it starts once ICMS's address is known
    define('nvct', 'nvct', {
      ICMS_URL: services.icms.url,
      STATUS_CONSUMER_NAME: taskReportConsumer(o.deploymentSuffix),
    });
    services.nvct = stack.use(await startBalancer({ backends: [(await start('nvct')).url] }));
    define('nvcf-1', 'nvcf', { ICMS_URL: services.icms.url, STATUS_CONSUMER_NAME: consumer.nvcf });
    define('nvcf-2', 'nvcf', { ICMS_URL: services.icms.url, STATUS_CONSUMER_NAME: consumer.nvcf });
    const nvcf = await Promise.all([start('nvcf-1'), start('nvcf-2')]);
    services.nvcf = stack.use(await startBalancer({ backends: nvcf.map((p) => p.url) }));
    for (const c of o.agents === false ? [] : clusters)
      define(`agent-${c.id}`, 'agent', {
        CLUSTER_ID: c.id,
        CLUSTER_DRIVER: 'simulated',
        SIM_STATE_FILE: path.join(o.stateDir, `${c.id}.json`),
      });
    if (o.agents !== false) await Promise.all(clusters.map((c) => start(`agent-${c.id}`)));
    const gwEnv = {
      NVCF_URL: services.nvcf.url,
      ICMS_URL: services.icms.url,
      NVCA_STATUS_URL: services['nvca-status'].url,
      NVCT_URL: services.nvct.url,
      ...o.gatewayEnv,
    };
    const [p1, p2] = o.gatewayPorts ?? [0, 0];
    define('gateway-1', 'gateway', gwEnv, async () => p1 || freePort());
    define('gateway-2', 'gateway', gwEnv, async () => p2 || freePort());
    const gateways = await Promise.all([start('gateway-1'), start('gateway-2')]);

    const balancerOf = (name: string) =>
      name.startsWith('nvcf')
        ? services.nvcf
        : name === 'icms'
          ? services.icms
          : name === 'nvca-status' || name === 'nvct'
            ? services[name]
            : undefined;
    const backendsOf = (kind: ServiceKind) => [...live.values()].filter((p) => p.kind === kind).map((p) => p.url);

    const replace: Topology['replace'] = async (name, onReady) => {
      const old = live.get(name);
      if (!old) throw new Error(`no process named ${name}`);
      const spec = envOf.get(name)!;
      if (spec.kind === 'agent') {
        const exit = await old.stop('SIGTERM');
        const next = await start(name);
        return { old, next, exit };
      }
      // the new process runs beside the old one, so it needs a port of its own (a gateway's fixed one is taken)
      const next = await launch(name, freePort);
      live.set(name, next);
      // as Kubernetes does: the old endpoint leaves the Service, requests already sent to it
      // finish (the preStop pause), then it gets SIGTERM and drains whatever is left
      balancerOf(name)?.setBackends(backendsOf(spec.kind));
      onReady?.(next, old);
      await new Promise((r) => setTimeout(r, 300));
      const exit = await old.stop('SIGTERM');
      if (spec.kind === 'gateway') gateways.splice(gateways.indexOf(old), 1, next);
      return { old, next, exit };
    };
    const kill = async (name: string) => {
      const p = live.get(name);
      if (!p) throw new Error(`no process named ${name}`);
      await p.stop('SIGKILL');
      live.delete(name);
      if (p.kind === 'gateway') gateways.splice(gateways.indexOf(p), 1);
      balancerOf(name)?.setBackends(backendsOf(p.kind));
    };
    const revive = async (name: string) => {
      if (live.has(name)) throw new Error(`${name} is running`);
      if (!envOf.has(name)) throw new Error(`no process named ${name}`);
      const p = await start(name);
      if (p.kind === 'gateway') gateways.push(p);
      balancerOf(name)?.setBackends(backendsOf(p.kind));
      return p;
    };
    const moved = stack.move();
    let disposed: Promise<void> | undefined;
    const dispose = () => (disposed ??= moved.disposeAsync());
    return {
      gateways,
      services,
      processes: () => [...live.values()],
      clusters: clusters.map((c) => c.id),
      replace,
      kill,
      revive,
      dispose,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (err) {
    await stack.disposeAsync();
    throw err;
  }
}

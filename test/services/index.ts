/**
 * Programmatic API for local NATS JetStream, Cassandra and Kubernetes used by tests and the demo.
 * The only module (besides cli.ts) that reads process.env.
 */
import fs from 'node:fs';
import { isOurCassandra, startCassandra } from './cassandra.js';
import { clusterDown, clusterUp, envIsCluster } from './cluster.js';
import { cqlLocalDc, cqlSupported } from './cql.js';
import { ServiceStartError, ServiceStopError } from './errors.js';
import { kubeconfigReachable, stopKubernetes, upKubernetes } from './kubernetes.js';
import { natsHealthy, natsReachable, isOurNats, startNats } from './nats.js';
import { isOurJaeger, jaegerHealthy, startJaeger } from './jaeger.js';
import { parseHostPort } from './ports.js';
import { cmdlineOf, isAlive, log, stopProcess } from './process.js';
import {
  ensureDirs,
  readEnvFile,
  readPid,
  readPidEnv,
  removePid,
  type ServiceName,
  type ServicePaths,
  servicePaths,
  withLock,
  writeEnvFile,
} from './state.js';

export { ServiceProvisionError, ServiceStartError, ServiceStopError, ProtocolError } from './errors.js';
export { NATS_SERVER_VERSION } from './nats.js';
export { JAEGER_VERSION, launchJaeger, type RunningJaeger } from './jaeger.js';
export { CASSANDRA_VERSION } from './cassandra.js';
export { KUBERNETES_VERSION, ETCD_VERSION } from './kube-build.js';

export type ServicesEnv = Record<string, string>;
export interface ServicesUpOptions {
  nats?: boolean;
  cassandra?: boolean;
  /** etcd, kube-apiserver with the CRDs, and the cluster simulator (default: off) */
  kubernetes?: boolean;
  /** Jaeger all-in-one, the trace backend (default: off) */
  tracing?: boolean;
  root?: string;
  /** filled with the services this call started (not reused), e.g. so a test run stops only those */
  started?: Set<ServiceName>;
}
export interface ServicesDownOptions {
  root?: string;
  purge?: boolean;
  /** the 3-node cluster (`up -- cluster`): 'also' (default without `only`), 'only', or 'none' */
  cluster?: 'also' | 'only' | 'none';
  /** stop only these (default: every recorded one); .services/env keeps the others' entries */
  only?: ServiceName[];
}
export type { ServiceName } from './state.js';

const KEYS: Record<ServiceName, string[]> = {
  nats: ['NATS_URL', 'NATS_MONITOR_URL'],
  cassandra: ['CASSANDRA_CONTACT_POINTS', 'CASSANDRA_LOCAL_DC'],
  kubernetes: ['KUBECONFIG'],
  tracing: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'JAEGER_QUERY_URL'],
};
const IS_OURS: Record<'nats' | 'cassandra' | 'tracing', (p: ServicePaths, cmdline: string) => boolean> = {
  nats: isOurNats,
  cassandra: isOurCassandra,
  tracing: isOurJaeger,
};

/** pid from .services/pids/<name>.pid when that process is alive and is the one we started. */
function ourLivePid(p: ServicePaths, name: 'nats' | 'cassandra' | 'tracing'): number | undefined {
  const pid = readPid(p, name);
  if (pid === undefined) return undefined;
  if (isAlive(pid) && IS_OURS[name](p, cmdlineOf(pid))) return pid;
  removePid(p, name); // stale: process gone or pid reused by something else
  return undefined;
}

const pick = (env: ServicesEnv, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));

async function upNats(p: ServicePaths, started: Set<ServiceName>): Promise<ServicesEnv> {
  const url = process.env.NATS_URL;
  if (url) {
    if (await natsReachable(url)) {
      log(`using NATS from environment: ${url}`);
      return { NATS_URL: url, ...pick(process.env as ServicesEnv, ['NATS_MONITOR_URL']) };
    }
    log(`NATS_URL=${url} is not reachable; starting a local nats-server instead`);
  }
  const pid = ourLivePid(p, 'nats');
  if (pid !== undefined) {
    const prev = readPidEnv(p, 'nats');
    if (prev.NATS_URL && prev.NATS_MONITOR_URL && (await natsHealthy(prev.NATS_MONITOR_URL))) {
      log(`reusing nats-server pid ${pid} at ${prev.NATS_URL}`);
      return pick(prev, KEYS.nats);
    }
    log(`nats-server pid ${pid} is not healthy; restarting it`);
    await stopProcess(pid);
    removePid(p, 'nats');
  }
  started.add('nats');
  return (await startNats(p, process.env)).env;
}

async function upCassandra(p: ServicePaths, started: Set<ServiceName>): Promise<ServicesEnv> {
  const points = process.env.CASSANDRA_CONTACT_POINTS;
  if (points) {
    const { host, port } = parseHostPort(points.split(',')[0] ?? '', 9042);
    if (await cqlSupported(host, port)) {
      log(`using Cassandra from environment: ${points}`);
      const dc = process.env.CASSANDRA_LOCAL_DC ?? (await cqlLocalDc(host, port).catch(() => 'datacenter1'));
      return { CASSANDRA_CONTACT_POINTS: points, CASSANDRA_LOCAL_DC: dc };
    }
    log(`CASSANDRA_CONTACT_POINTS=${points} is not reachable; starting a local Cassandra instead`);
  }
  const pid = ourLivePid(p, 'cassandra');
  const prev = readPidEnv(p, 'cassandra');
  if (pid !== undefined && prev.CASSANDRA_CONTACT_POINTS && prev.CASSANDRA_LOCAL_DC) {
    const { host, port } = parseHostPort(prev.CASSANDRA_CONTACT_POINTS, 9042);
    if (await cqlSupported(host, port)) {
      log(`reusing cassandra pid ${pid} at ${prev.CASSANDRA_CONTACT_POINTS}`);
      return pick(prev, KEYS.cassandra);
    }
  }
  if (pid !== undefined) {
    log(`cassandra pid ${pid} does not answer CQL; restarting it`);
    await stopProcess(pid);
    removePid(p, 'cassandra');
  }
  started.add('cassandra');
  return (await startCassandra(p, process.env)).env;
}

async function upTracing(p: ServicePaths, started: Set<ServiceName>): Promise<ServicesEnv> {
  const pid = ourLivePid(p, 'tracing');
  if (pid !== undefined) {
    const prev = readPidEnv(p, 'tracing');
    if (prev.JAEGER_QUERY_URL && (await jaegerHealthy(prev.JAEGER_QUERY_URL))) {
      log(`reusing jaeger pid ${pid}, UI at ${prev.JAEGER_QUERY_URL}`);
      return pick(prev, KEYS.tracing);
    }
    log(`jaeger pid ${pid} does not answer; restarting it`);
    await stopProcess(pid);
    removePid(p, 'tracing');
  }
  started.add('tracing');
  const { env } = await startJaeger(p, process.env);
  log(`traces: open ${env.JAEGER_QUERY_URL} (services export to ${env.OTEL_EXPORTER_OTLP_ENDPOINT})`);
  return { ...env };
}

const CLUSTER_KEYS = [
  ...KEYS.nats,
  ...KEYS.cassandra,
  'NATS_MONITOR_URLS',
  'NATS_STREAM_REPLICAS',
  'CASSANDRA_REPLICATION',
];

/**
 * Starts (or reuses) the 3-node NATS cluster and Cassandra ring (test/services/cluster.ts) and points
 * .services/env at them, with NATS_STREAM_REPLICAS=3 and CASSANDRA_REPLICATION for RF 3; the
 * entries of Kubernetes and tracing stay. The single-node services, if running, keep running.
 */
export async function clusterServicesUp(opts: { root?: string } = {}): Promise<ServicesEnv> {
  const p = servicePaths(opts.root);
  ensureDirs(p);
  return withLock(p, async () => {
    const env = await clusterUp(p);
    const prev = readEnvFile(p.envFile);
    const keep = Object.fromEntries(Object.entries(prev).filter(([k]) => !CLUSTER_KEYS.includes(k)));
    writeEnvFile(p.envFile, { ...keep, ...env });
    return env;
  });
}

/** `entries` (from .services/env) when the service they name still answers, else {}. */
async function stillValid(name: ServiceName, entries: ServicesEnv): Promise<ServicesEnv> {
  if (name === 'nats' && entries.NATS_URL) return (await natsReachable(entries.NATS_URL)) ? entries : {};
  if (name === 'cassandra' && entries.CASSANDRA_CONTACT_POINTS) {
    const { host, port } = parseHostPort(entries.CASSANDRA_CONTACT_POINTS.split(',')[0] ?? '', 9042);
    return (await cqlSupported(host, port)) ? entries : {};
  }
  if (name === 'kubernetes' && entries.KUBECONFIG)
    return (await kubeconfigReachable(entries.KUBECONFIG)) ? entries : {};
  if (name === 'tracing' && entries.JAEGER_QUERY_URL)
    return (await jaegerHealthy(entries.JAEGER_QUERY_URL)) ? entries : {};
  return {};
}

/**
 * Ensures the requested services (default: both) are running and returns the
 * env map also written to .services/env. Idempotent; safe to call concurrently.
 */
export async function servicesUp(opts: ServicesUpOptions = {}): Promise<ServicesEnv> {
  const p = servicePaths(opts.root);
  ensureDirs(p);
  const want: ServiceName[] = [];
  if (opts.nats ?? true) want.push('nats');
  if (opts.cassandra ?? true) want.push('cassandra');
  if (opts.kubernetes ?? false) want.push('kubernetes');
  if (opts.tracing ?? false) want.push('tracing');
  return withLock(p, async () => {
    const t0 = Date.now();
    const prev = readEnvFile(p.envFile);
    const env: ServicesEnv = {};
    // Keep entries of services not asked for this time, as long as they still hold.
    for (const name of ['nats', 'cassandra', 'kubernetes', 'tracing'] as const)
      if (!want.includes(name)) Object.assign(env, await stillValid(name, pick(prev, KEYS[name])));
    const started = opts.started ?? new Set<ServiceName>();
    const up = {
      nats: upNats,
      cassandra: upCassandra,
      kubernetes: (q: ServicePaths, s: Set<ServiceName>) => upKubernetes(q, process.env, s),
      tracing: upTracing,
    };
    const results = await Promise.allSettled(want.map((name) => up[name](p, started)));
    for (const r of results) if (r.status === 'fulfilled') Object.assign(env, r.value);
    writeEnvFile(p.envFile, env);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) {
      const first = failed[0]?.reason;
      if (failed.length === 1 && first instanceof Error) throw first;
      throw new ServiceStartError(failed.map((f) => String(f.reason)).join('\n\n'), { cause: first });
    }
    log(`services up in ${((Date.now() - t0) / 1000).toFixed(1)}s; env in ${p.envFile}`);
    return env;
  });
}

/** Stops exactly the processes recorded in .services/pids/ and removes .services/env. Caches stay. */
export async function servicesDown(opts: ServicesDownOptions = {}): Promise<void> {
  const p = servicePaths(opts.root);
  if (!fs.existsSync(p.servicesDir)) return;
  const cluster = opts.cluster ?? (opts.only ? 'none' : 'also');
  await withLock(p, async () => {
    if (cluster !== 'none') {
      const pointed = envIsCluster(p);
      await clusterDown(p, opts.purge);
      if (pointed) {
        const env = readEnvFile(p.envFile);
        for (const k of CLUSTER_KEYS) delete env[k];
        writeEnvFile(p.envFile, env);
      }
      if (cluster === 'only') return;
    }
    // .services/env names the cluster, which stays up: only the single-node entries would go
    const keepEnv = cluster === 'none' && envIsCluster(p);
    const stuck: string[] = [];
    await Promise.all(
      (['nats', 'cassandra', 'kubernetes', 'tracing'] as const)
        .filter((name) => !opts.only || opts.only.includes(name))
        .map(async (name) => {
          if (name === 'kubernetes') return void stuck.push(...(await stopKubernetes(p)));
          const pid = readPid(p, name);
          if (pid === undefined) return;
          if (isAlive(pid) && !IS_OURS[name](p, cmdlineOf(pid))) {
            log(`pid ${pid} in ${name}.pid is no longer our ${name}; not signalling it`);
          } else if (isAlive(pid)) {
            log(`stopping ${name} (pid ${pid})...`);
            if (!(await stopProcess(pid, name === 'cassandra' ? 30_000 : 10_000))) stuck.push(`${name} pid ${pid}`);
            else log(`${name} stopped`);
          }
          removePid(p, name);
        }),
    );
    if (keepEnv) {
      /* the env file describes the cluster, which is still running */
    } else if (!opts.only) fs.rmSync(p.envFile, { force: true });
    else {
      const env = readEnvFile(p.envFile);
      for (const name of opts.only) for (const k of KEYS[name]) delete env[k];
      writeEnvFile(p.envFile, env);
    }
    if (opts.purge) {
      const dirs = {
        nats: [p.natsData],
        cassandra: [p.cassandraHome],
        kubernetes: [p.etcdData, p.kubeDir],
        tracing: [],
      };
      const which = opts.only ?? (['nats', 'cassandra', 'kubernetes', 'tracing'] as const);
      for (const name of which) for (const dir of dirs[name]) fs.rmSync(dir, { recursive: true, force: true });
      log(`removed ${which.join(', ')} data directories`);
    }
    if (stuck.length > 0) throw new ServiceStopError(`could not stop: ${stuck.join(', ')}`);
  });
}

/** The KEY=VALUE map last written by servicesUp ({} when services are down). */
export function readServicesEnv(root?: string): ServicesEnv {
  return readEnvFile(servicePaths(root).envFile);
}

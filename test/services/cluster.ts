/**
 * `services:up -- cluster`: a 3-node NATS cluster (routes, JetStream on each) and a 3-node Cassandra
 * ring on 127.0.0.1, 127.0.0.2 and 127.0.0.3, on this one machine. Its state lives apart from the
 * single-node services, in .services/cluster/ (pids, the nodes' command lines, env, data, logs), so
 * `services:down -- cluster` and `services:down -- single` stop one set and leave the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { cassandraJvmArgs, cassandraYaml, type CassandraLayout, logbackXml } from './cassandra-config.js';
import { ensureCassandraLib } from './cassandra.js';
import { cqlSupported } from './cql.js';
import { ServiceStartError, ServiceStopError } from './errors.js';
import { ensureNatsServer, natsHealthy } from './nats.js';
import { isPortFree, LOOPBACK } from './ports.js';
import { cmdlineOf, isAlive, log, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { readEnvFile, type ServicePaths, writeEnvFile } from './state.js';

export const CLUSTER_SIZE = 3;
const CASSANDRA_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
// evenly spread Murmur3 tokens: each node owns a third of the ring (with RF 3 every node holds everything)
const TOKENS = ['-9223372036854775808', '-3074457345618258603', '3074457345618258602'];
const RING_NAME = 'services-cluster';
const PREFERRED = { natsClient: 24222, natsCluster: 26222, natsMonitor: 28222, cqlNative: 29042, cqlStorage: 27000 };

export type NodeName = `nats-${number}` | `cassandra-${number}`;

/** How to start one node again: recorded at `up`, used by restarts (tests) and by `down`'s identity check. */
export interface NodeSpec {
  name: NodeName;
  cmd: string;
  args: string[];
  cwd: string;
  logFile: string;
  /** NATS: its monitor URL; Cassandra: host:port of its native protocol */
  probe: string;
  /** what its command line contains when it is ours */
  marker: string;
}

export interface ClusterState {
  nodes: NodeSpec[];
  env: Record<string, string>;
}

export const clusterDir = (p: ServicePaths) => path.join(p.servicesDir, 'cluster');
const stateFile = (p: ServicePaths) => path.join(clusterDir(p), 'state.json');
const pidFile = (p: ServicePaths, name: NodeName) => path.join(clusterDir(p), 'pids', `${name}.pid`);
export const clusterEnvFile = (p: ServicePaths) => path.join(clusterDir(p), 'env');

export function readClusterState(p: ServicePaths): ClusterState | undefined {
  try {
    return JSON.parse(fs.readFileSync(stateFile(p), 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

export function nodePid(p: ServicePaths, spec: NodeSpec): number | undefined {
  try {
    const pid = Number(fs.readFileSync(pidFile(p, spec.name), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) && cmdlineOf(pid).includes(spec.marker) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function probe(spec: NodeSpec): Promise<boolean> {
  if (spec.name.startsWith('nats')) return natsHealthy(spec.probe);
  const [host, port] = spec.probe.split(':');
  return cqlSupported(host, Number(port));
}

/** Starts one node from its spec (a no-op when it runs) and waits until it answers. */
export async function startNode(p: ServicePaths, spec: NodeSpec, timeoutMs = 180_000): Promise<number> {
  const running = nodePid(p, spec);
  if (running !== undefined) return running;
  fs.appendFileSync(spec.logFile, `\n=== services: starting ${spec.name} ${new Date().toISOString()} ===\n`);
  const pid = spawnDetached(spec.cmd, spec.args, { cwd: spec.cwd, env: process.env, logFile: spec.logFile });
  fs.mkdirSync(path.dirname(pidFile(p, spec.name)), { recursive: true });
  fs.writeFileSync(pidFile(p, spec.name), `${pid}\n`);
  const outcome = await waitUntil(() => probe(spec), { timeoutMs, intervalMs: 250, exited: () => !isAlive(pid) });
  if (outcome !== 'ready') {
    await stopProcess(pid, 10_000);
    throw new ServiceStartError(
      `${spec.name} ${outcome === 'exited' ? 'exited during startup' : `did not answer within ${timeoutMs / 1000}s`}; last lines of ${spec.logFile}:\n${tailFile(spec.logFile, 40)}`,
    );
  }
  return pid;
}

/** SIGKILL (a crash) or SIGTERM then SIGKILL (a stop); resolves once the process is gone. */
export async function stopNode(p: ServicePaths, spec: NodeSpec, how: 'kill' | 'stop' = 'stop'): Promise<void> {
  const pid = nodePid(p, spec);
  if (pid === undefined) return;
  if (how === 'kill') {
    process.kill(pid, 'SIGKILL');
    await waitUntil(() => Promise.resolve(!isAlive(pid)), { timeoutMs: 10_000, intervalMs: 50 });
  } else if (!(await stopProcess(pid, spec.name.startsWith('cassandra') ? 30_000 : 10_000))) {
    throw new ServiceStopError(`${spec.name} pid ${pid} did not stop`);
  }
  fs.rmSync(pidFile(p, spec.name), { force: true });
}

/** A port free on every given address, `preferred` when it is, else the next ones up. */
async function portFreeOn(addresses: string[], preferred: number, taken: Set<number>): Promise<number> {
  for (let port = preferred; port < preferred + 500; port++) {
    if (taken.has(port)) continue;
    if ((await Promise.all(addresses.map((a) => isPortFree(port, a)))).every(Boolean)) {
      taken.add(port);
      return port;
    }
  }
  throw new ServiceStartError(`no free port from ${preferred} on ${addresses.join(', ')}`);
}

async function plan(p: ServicePaths): Promise<ClusterState> {
  const dir = clusterDir(p);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const taken = new Set<number>();
  const nats = await ensureNatsServer(p, process.env);
  const lib = await ensureCassandraLib(p, process.env);
  const nodes: NodeSpec[] = [];
  const natsPorts = [];
  for (let i = 0; i < CLUSTER_SIZE; i++) {
    natsPorts.push({
      client: await portFreeOn([LOOPBACK], PREFERRED.natsClient + i, taken),
      cluster: await portFreeOn([LOOPBACK], PREFERRED.natsCluster + i, taken),
      monitor: await portFreeOn([LOOPBACK], PREFERRED.natsMonitor + i, taken),
    });
  }
  const routes = natsPorts.map((n) => `nats://${LOOPBACK}:${n.cluster}`).join(',');
  natsPorts.forEach((n, i) => {
    const data = path.join(dir, `nats-${i + 1}`);
    fs.mkdirSync(data, { recursive: true });
    nodes.push({
      name: `nats-${i + 1}`,
      cmd: nats,
      args: [
        '-a',
        LOOPBACK,
        '-p',
        String(n.client),
        '-m',
        String(n.monitor),
        '-n',
        `cluster-nats-${i + 1}`,
        '-js',
        '-sd',
        data,
        '--cluster_name',
        'nvcf',
        '--cluster',
        `nats://${LOOPBACK}:${n.cluster}`,
        '--routes',
        routes,
      ],
      cwd: p.root,
      logFile: path.join(logs, `nats-${i + 1}.log`),
      probe: `http://${LOOPBACK}:${n.monitor}`,
      marker: data,
    });
  });
  // the same ports on each node's own address, as on three hosts
  const native = await portFreeOn(CASSANDRA_ADDRESSES, PREFERRED.cqlNative, taken);
  const storage = await portFreeOn(CASSANDRA_ADDRESSES, PREFERRED.cqlStorage, taken);
  const jamm = fs.readdirSync(lib).find((f) => /^jamm-.*\.jar$/.test(f));
  CASSANDRA_ADDRESSES.forEach((address, i) => {
    const home = path.join(dir, `cassandra-${i + 1}`);
    const layout: CassandraLayout = {
      home,
      confDir: path.join(home, 'conf'),
      logFile: path.join(logs, `cassandra-${i + 1}.log`),
      errorFile: path.join(logs, `cassandra-${i + 1}-hs_err_%p.log`),
      nativePort: native,
      storagePort: storage,
      ring: {
        clusterName: RING_NAME,
        address,
        seeds: CASSANDRA_ADDRESSES.map((a) => `${a}:${storage}`),
        initialToken: TOKENS[i],
      },
    };
    for (const d of ['conf', 'data', 'commitlog', 'hints', 'saved_caches', 'cdc_raw', 'triggers'])
      fs.mkdirSync(path.join(home, d), { recursive: true });
    fs.writeFileSync(path.join(layout.confDir, 'cassandra.yaml'), cassandraYaml(layout));
    fs.writeFileSync(path.join(layout.confDir, 'logback.xml'), logbackXml(layout.logFile));
    nodes.push({
      name: `cassandra-${i + 1}`,
      cmd: process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
      args: cassandraJvmArgs(layout, lib, jamm && path.join(lib, jamm)),
      cwd: home,
      logFile: path.join(logs, `cassandra-${i + 1}.stdout.log`),
      probe: `${address}:${native}`,
      marker: `-Dcassandra.storagedir=${home}`,
    });
  });
  const env = {
    NATS_URL: natsPorts.map((n) => `nats://${LOOPBACK}:${n.client}`).join(','),
    NATS_MONITOR_URL: `http://${LOOPBACK}:${natsPorts[0].monitor}`,
    NATS_MONITOR_URLS: natsPorts.map((n) => `http://${LOOPBACK}:${n.monitor}`).join(','),
    NATS_STREAM_REPLICAS: String(CLUSTER_SIZE),
    CASSANDRA_CONTACT_POINTS: CASSANDRA_ADDRESSES.map((a) => `${a}:${native}`).join(','),
    CASSANDRA_LOCAL_DC: 'datacenter1',
    CASSANDRA_REPLICATION: `NetworkTopologyStrategy:datacenter1=${CLUSTER_SIZE}`,
  };
  return { nodes, env };
}

/** JetStream has a meta leader and every server is current with it: GET /healthz on each answers 200. */
async function natsClusterReady(nodes: NodeSpec[]): Promise<boolean> {
  const oks = await Promise.all(
    nodes
      .filter((n) => n.name.startsWith('nats'))
      .map(async (n) => {
        try {
          const res = await fetch(`${n.probe}/healthz`, { signal: AbortSignal.timeout(2000) });
          await res.arrayBuffer();
          return res.status === 200;
        } catch {
          return false;
        }
      }),
  );
  return oks.every(Boolean);
}

/** Every node of the ring is UP as the driver (connected through the first) sees it. */
export async function ringUp(env: Record<string, string>, timeoutMs = 120_000): Promise<void> {
  const contactPoints = (env.CASSANDRA_CONTACT_POINTS ?? '').split(',');
  const client = new cassandra.Client({
    contactPoints,
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    protocolOptions: { port: Number(contactPoints[0]?.split(':')[1] ?? 9042) },
  });
  try {
    await client.connect();
    const outcome = await waitUntil(
      async () => {
        const rs = await client.execute('SELECT peer FROM system.peers_v2');
        const up = client.hosts.values().filter((h) => h.isUp()).length;
        return rs.rowLength === CLUSTER_SIZE - 1 && up === CLUSTER_SIZE;
      },
      { timeoutMs, intervalMs: 500 },
    );
    if (outcome !== 'ready')
      throw new ServiceStartError(
        `the Cassandra ring did not show ${CLUSTER_SIZE} nodes up within ${timeoutMs / 1000}s`,
      );
  } finally {
    await client.shutdown();
  }
}

/** Starts (or reuses) the six nodes and returns the env also written to .services/cluster/env. */
export async function clusterUp(p: ServicePaths): Promise<Record<string, string>> {
  const t0 = Date.now();
  let state = readClusterState(p);
  if (!state || !state.nodes.some((n) => nodePid(p, n) !== undefined)) {
    state = await plan(p);
    fs.writeFileSync(stateFile(p), JSON.stringify(state, null, 2));
  }
  const running = state.nodes.filter((n) => nodePid(p, n) !== undefined).map((n) => n.name);
  log(
    running.length
      ? `cluster: reusing ${running.join(', ')}`
      : 'cluster: starting 3 nats-servers and 3 Cassandra nodes...',
  );
  // all six at once: with auto_bootstrap off and fixed tokens no Cassandra node waits for another
  await Promise.all(state.nodes.map((n) => startNode(p, n)));
  const nodes = state.nodes;
  if ((await waitUntil(() => natsClusterReady(nodes), { timeoutMs: 60_000, intervalMs: 250 })) !== 'ready')
    throw new ServiceStartError('the NATS cluster has no JetStream meta leader after 60 s');
  await ringUp(state.env);
  writeEnvFile(clusterEnvFile(p), state.env);
  log(`cluster up in ${((Date.now() - t0) / 1000).toFixed(1)}s; env in ${clusterEnvFile(p)}`);
  return state.env;
}

/** Stops every node of the cluster that runs; `purge` removes its data too. */
export async function clusterDown(p: ServicePaths, purge = false): Promise<boolean> {
  const state = readClusterState(p);
  if (!state) return false;
  const live = state.nodes.filter((n) => nodePid(p, n) !== undefined);
  if (live.length) log(`cluster: stopping ${live.map((n) => n.name).join(', ')}...`);
  await Promise.all(state.nodes.map((n) => stopNode(p, n)));
  fs.rmSync(clusterEnvFile(p), { force: true });
  if (purge) {
    fs.rmSync(clusterDir(p), { recursive: true, force: true });
    log('cluster: data removed');
  }
  return true;
}

/** True when .services/env names the cluster (so `down -- cluster` takes those entries out). */
export function envIsCluster(p: ServicePaths): boolean {
  const cluster = readEnvFile(clusterEnvFile(p));
  return !!cluster.NATS_URL && readEnvFile(p.envFile).NATS_URL === cluster.NATS_URL;
}

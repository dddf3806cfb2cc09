/**
 * The control plane on the 3-node NATS cluster and Cassandra ring (`services:up -- cluster`, or the
 * test:cluster global setup): streams with 3 replicas, keyspaces with replication factor 3, each test
 * system in keyspaces and durables of its own. Also: the cluster's nodes, to kill, stop and start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import cassandra from 'cassandra-driver';
import { createMigrator, parseReplication } from '@nvcf/cassandra';
import { allStreams } from '@nvcf/contracts';
import { startSystem, demoClusters, type SystemOptions, type System } from '@nvcf/local';
import { MIGRATIONS_DIR } from '@nvcf/local/topology';
import { realBackends } from '@nvcf/local/real';
import { waitUntil } from '@nvcf/testing';
import { deleteDurables } from '@nvcf/test/durables';
import {
  clusterDir,
  nodePid,
  readClusterState,
  ringUp,
  startNode,
  stopNode,
  type NodeSpec,
} from '../services/cluster.js';
import { servicePaths } from '../services/state.js';

export interface ClusterEnv {
  natsUrl: string;
  monitorUrls: string[];
  contactPoints: string[];
  localDataCenter: string;
  streamReplicas: number;
  replication: string;
}

export function clusterEnv(): ClusterEnv {
  const e = process.env;
  if (!e.NATS_URL || !e.CASSANDRA_CONTACT_POINTS || !e.NATS_MONITOR_URLS || !e.CASSANDRA_REPLICATION) {
    throw new Error(
      'the cluster env is not set: run these with `npm run test:cluster` (its global setup starts the cluster)',
    );
  }
  return {
    natsUrl: e.NATS_URL,
    monitorUrls: e.NATS_MONITOR_URLS.split(','),
    contactPoints: e.CASSANDRA_CONTACT_POINTS.split(','),
    localDataCenter: e.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    streamReplicas: Number(e.NATS_STREAM_REPLICAS ?? '3'),
    replication: e.CASSANDRA_REPLICATION,
  };
}

export type ClusterSystem = System & { suffix: string };

export async function startClusterSystem(overrides: SystemOptions = {}): Promise<ClusterSystem> {
  const env = clusterEnv();
  const suffix = `_${randomBytes(4).toString('hex')}`;
  const backends = await realBackends({
    natsUrl: env.natsUrl,
    contactPoints: env.contactPoints,
    localDataCenter: env.localDataCenter,
    streamReplicas: env.streamReplicas,
    replication: parseReplication(env.replication),
    keyspaceSuffix: suffix,
    dropKeyspaces: true,
  });
  try {
    const system = await startSystem({
      clusters: demoClusters(suffix.replace('_', '-')),
      ...overrides,
      deploymentSuffix: suffix,
      statusConsumerStart: 'new',
      backends,
    });
    const dispose = system.dispose.bind(system);
    const disposeAll = async () => {
      try {
        await dispose();
      } catch (err) {
        // a node just back from a stop may be too slow for a schema change within the driver's 12 s:
        // drop the keyspaces again with time to spare (the bus is closed by then either way)
        await dropKeyspaces(env, suffix).catch(() => {
          throw err;
        });
      }
      await deleteDurables(env.natsUrl, suffix.slice(1)).catch(() => {});
    };
    return Object.assign(system, { suffix, dispose: disposeAll, [Symbol.asyncDispose]: disposeAll });
  } catch (err) {
    await backends.dispose();
    throw err;
  }
}

/** The keyspaces of a deployment with `suffix` on the ring, migrated (replication factor 3), as `migrate up` does before a topology starts. */
export async function migrateKeyspaces(env: ClusterEnv, suffix: string) {
  await using migrator = await createMigrator({
    contactPoints: env.contactPoints,
    localDataCenter: env.localDataCenter,
    dir: MIGRATIONS_DIR,
    keyspaceSuffix: suffix,
    replication: parseReplication(env.replication),
  });
  await migrator.up();
}

/** What every process of a topology on the cluster reads: the cluster, keyspaces and durables of its own (`suffix`). */
export function topologyEnvOn(env: ClusterEnv, suffix: string, cursorSecret: string): Record<string, string> {
  return {
    NATS_URL: env.natsUrl,
    NATS_STREAM_REPLICAS: String(env.streamReplicas),
    CASSANDRA_CONTACT_POINTS: env.contactPoints.join(','),
    CASSANDRA_LOCAL_DC: env.localDataCenter,
    CASSANDRA_KEYSPACE_SUFFIX: suffix,
    NVCF_INTERNAL_SECRET: randomBytes(24).toString('hex'),
    NVCF_CURSOR_SECRET: cursorSecret,
    STATUS_CONSUMER_START: 'new',
    LOG_LEVEL: 'warn',
  };
}

export async function dropKeyspaces(env: ClusterEnv, suffix: string) {
  const client = new cassandra.Client({
    contactPoints: env.contactPoints,
    localDataCenter: env.localDataCenter,
    protocolOptions: { port: Number(env.contactPoints[0]?.split(':')[1] ?? 9042) },
    socketOptions: { readTimeout: 60_000 },
  });
  try {
    await client.connect();
    for (const k of ['nvcf_api', 'icms_api', 'nvca_status', 'nvct_api'])
      await client.execute(`DROP KEYSPACE IF EXISTS ${k}${suffix}`);
  } finally {
    await client.shutdown();
  }
}

export async function withJsm<T>(
  natsUrl: string,
  fn: (jsm: JetStreamManager, nc: NatsConnection) => Promise<T>,
): Promise<T> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'test-cluster-admin' });
  try {
    return await fn(await jetstreamManager(nc), nc);
  } finally {
    await nc.close();
  }
}

/** Nothing of this system is left on the bus: its durables have no pending or unacknowledged message. */
export async function nothingPending(natsUrl: string, system: ClusterSystem) {
  const tags = [system.suffix.slice(1), ...system.clusters.map((c) => c.id)];
  return withJsm(natsUrl, async (jsm) => {
    const left: string[] = [];
    for (const stream of allStreams)
      for await (const ci of jsm.consumers.list(stream.name))
        if (tags.some((t) => ci.name.includes(t)) && ci.num_pending + ci.num_ack_pending > 0)
          left.push(`${stream.name}/${ci.name}: ${ci.num_pending} pending, ${ci.num_ack_pending} unacknowledged`);
    return left;
  });
}

export interface Nodes {
  nats: NodeSpec[];
  cassandra: NodeSpec[];
  start(node: NodeSpec): Promise<void>;
  stop(node: NodeSpec, how: 'kill' | 'stop'): Promise<void>;
  /** SIGSTOP: the node hangs with its sockets open (a long GC pause, a frozen VM); SIGCONT wakes it */
  signal(node: NodeSpec, signal: 'SIGSTOP' | 'SIGCONT'): void;
  /** every NATS server answers /healthz (JetStream current with its meta leader) */
  natsHealthy(): Promise<void>;
  ringUp(): Promise<void>;
  /**
   * `via` (a node that is up) refuses a QUORUM read as Unavailable: its failure detector has marked
   * enough peers down. Until then a write it coordinates is sent to the dead replicas and times out
   * with its outcome unknown, not refused.
   */
  quorumLost(via: NodeSpec): Promise<void>;
  /** the hints a Cassandra node holds for the node with `hostId` (files in its hints directory) */
  hintFiles(node: NodeSpec, hostId: string): string[];
  /** a node's host id, as the ring knows it */
  hostId(node: NodeSpec): Promise<string>;
  logOf(node: NodeSpec): string;
}

export function clusterNodes(): Nodes {
  const p = servicePaths();
  const state = readClusterState(p);
  if (!state) throw new Error(`no cluster state in ${clusterDir(p)}`);
  const env = clusterEnv();
  const home = (n: NodeSpec) => path.join(clusterDir(p), n.name);
  return {
    nats: state.nodes.filter((n) => n.name.startsWith('nats')),
    cassandra: state.nodes.filter((n) => n.name.startsWith('cassandra')),
    start: async (n) => {
      await startNode(p, n);
    },
    stop: (n, how) => stopNode(p, n, how),
    signal: (n, signal) => {
      const pid = nodePid(p, n);
      if (pid !== undefined) process.kill(pid, signal);
    },
    natsHealthy: async () => {
      await waitUntil(
        async () => {
          for (const url of env.monitorUrls) {
            const r = await fetch(`${url}/healthz`).catch(() => undefined);
            if (r?.status !== 200) return false;
          }
          return true;
        },
        { what: 'every NATS server healthy', timeoutMs: 60_000, intervalMs: 250 },
      );
    },
    ringUp: () => ringUp(state.env),
    quorumLost: async (via) => {
      const client = new cassandra.Client({
        contactPoints: [via.probe],
        localDataCenter: env.localDataCenter,
        protocolOptions: { port: Number(via.probe.split(':')[1]) },
        // only `via` coordinates: the driver's own view of the ring must not answer for it
        policies: {
          loadBalancing: new cassandra.policies.loadBalancing.AllowListPolicy(
            new cassandra.policies.loadBalancing.RoundRobinPolicy(),
            [via.probe],
          ),
        },
      });
      try {
        await client.connect();
        await waitUntil(
          async () => {
            try {
              // system_distributed has three replicas on this ring; any partition key will do
              await client.execute(
                'SELECT status FROM system_distributed.view_build_status WHERE keyspace_name = ? AND view_name = ?',
                ['none', 'none'],
                { prepare: true, consistency: cassandra.types.consistencies.quorum },
              );
              return false;
            } catch (err) {
              // the default retry policy tries the next host on Unavailable, so it arrives wrapped
              const inner =
                err instanceof cassandra.errors.NoHostAvailableError ? Object.values(err.innerErrors) : [err];
              if (
                inner.some(
                  (e) =>
                    e instanceof cassandra.errors.ResponseError &&
                    e.code === (cassandra.types.responseErrorCodes.unavailableException as number),
                )
              )
                return true;
              throw err;
            }
          },
          { what: `${via.name} to refuse QUORUM as Unavailable`, timeoutMs: 90_000, intervalMs: 500 },
        );
      } finally {
        await client.shutdown();
      }
    },
    hintFiles: (n, hostId) => {
      try {
        return fs.readdirSync(path.join(home(n), 'hints')).filter((f) => f.startsWith(hostId) && f.endsWith('.hints'));
      } catch {
        return [];
      }
    },
    hostId: async (n) => {
      const client = new cassandra.Client({
        contactPoints: env.contactPoints,
        localDataCenter: env.localDataCenter,
        protocolOptions: { port: Number(n.probe.split(':')[1]) },
      });
      try {
        await client.connect();
        const host = client.hosts.get(n.probe);
        if (!host) throw new Error(`the driver does not know ${n.probe}`);
        return host.hostId.toString();
      } finally {
        await client.shutdown();
      }
    },
    logOf: (n) => fs.readFileSync(path.join(clusterDir(p), 'logs', `${n.name}.log`), 'utf8'),
  };
}

/** The NATS node that holds the connection named `name`, from each live server's /connz. */
export async function natsNodeOf(name: string, nodes: Nodes, monitorUrls: string[]): Promise<NodeSpec> {
  for (let i = 0; i < monitorUrls.length; i++) {
    const res = await fetch(`${monitorUrls[i]}/connz?limit=1024`, { signal: AbortSignal.timeout(5000) }).catch(
      () => undefined,
    );
    if (!res) continue; // a server that is down holds nothing
    const r = (await res.json()) as { connections?: { name?: string }[] };
    if (r.connections?.some((c) => c.name === name)) return nodes.nats[i];
  }
  throw new Error(`no NATS server holds a connection named ${name}`);
}

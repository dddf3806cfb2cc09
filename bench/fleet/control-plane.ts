// The control plane of the fleet benchmark in a process of its own: three subgraphs and the gateway
// on NATS + Cassandra, the clusters registered with ICMS, and no agent (they run in bench/fleet/agents.ts).
// FLEET_CLUSTER_IDS, NATS_URL, NATS_STREAM_REPLICAS, CASSANDRA_*; prints
// `ready <graphql url> <ws url> <metrics base url> <keyspace and durable suffix>`: the benchmark scrapes
// the metrics (the gateway's listener renders the whole process's registry, the three subgraphs' included)
// and reads the stores and durables the suffix names.
import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { parseReplication } from '@nvcf/cassandra';
import { setLogLevel } from '@nvcf/logging';

setLogLevel('error');
const ids = (process.env.FLEET_CLUSTER_IDS ?? '').split(',').filter(Boolean);
const base = demoClusters()[0];
const clusters = ids.map((id) => ({ ...base, id, name: id }));
const suffix = `_${randomBytes(3).toString('hex')}`;
const backends = await realBackends({
  natsUrl: process.env.NATS_URL ?? '',
  contactPoints: (process.env.CASSANDRA_CONTACT_POINTS ?? '').split(','),
  localDataCenter: process.env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
  streamReplicas: Number(process.env.NATS_STREAM_REPLICAS ?? '1'),
  replication: process.env.CASSANDRA_REPLICATION ? parseReplication(process.env.CASSANDRA_REPLICATION) : undefined,
  keyspaceSuffix: suffix,
  dropKeyspaces: true,
});
const system = await startSystem({
  backends,
  clusters,
  agents: 'external',
  deploymentSuffix: suffix,
  statusConsumerStart: 'new',
  revisionDeadlineMs: 3_600_000,
  // no rate limits (one tenant drives the whole fleet); a big launch may outlast the default 30 s on a loaded machine
  gatewayLimits: { operationsPerSecond: 0, subscriptionsPerSecond: 0, requestTimeoutMs: 120_000 },
});
process.stdout.write(`ready ${system.url} ${system.gateway.wsUrl} ${system.gateway.metricsUrl} ${suffix}\n`);
let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void system.dispose().finally(() => process.exit(0));
});

// The control plane of the fleet benchmark: three subgraphs and the gateway on NATS + Cassandra, the
// clusters registered with ICMS, and no agent (they run in bench/fleet/agents.ts).
// FLEET_CONTROL_PLANE=processes: the production topology, each service its own OS process
// (two gateways, two nvcf replicas, icms, nvca-status: what the chart deploys); `one`: all of them
// in this process, as `npm start` runs them (the default: every earlier row ran so, and on one machine the
// processes share the very cores they would isolate; bench/results/fleet.json has rows of both).
// FLEET_CLUSTER_IDS, NATS_URL, NATS_STREAM_REPLICAS, CASSANDRA_*; prints
// `ready <graphql url> <ws url> <metrics base urls, comma-separated> <keyspace and durable suffix>`:
// the benchmark scrapes the metrics and reads the stores and durables the suffix names.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters, type System } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { startTopology } from '@nvcf/local/topology';
import { parseReplication } from '@nvcf/cassandra';
import { setLogLevel } from '@nvcf/logging';
import { profileArgs } from '../lib.js';

setLogLevel('error');
const mode = process.env.FLEET_CONTROL_PLANE ?? 'one';
if (mode !== 'processes' && mode !== 'one') throw new Error(`FLEET_CONTROL_PLANE: processes or one (got '${mode}')`);
const ids = (process.env.FLEET_CLUSTER_IDS ?? '').split(',').filter(Boolean);
const base = demoClusters()[0];
const clusters = ids.map((id) => ({ ...base, id, name: id }));
const suffix = `_${randomBytes(3).toString('hex')}`;
const replication = process.env.CASSANDRA_REPLICATION ? parseReplication(process.env.CASSANDRA_REPLICATION) : undefined;
const contactPoints = (process.env.CASSANDRA_CONTACT_POINTS ?? '').split(',');
const localDataCenter = process.env.CASSANDRA_LOCAL_DC ?? 'datacenter1';
const streamReplicas = process.env.NATS_STREAM_REPLICAS ?? '1';
// migrates the suffixed keyspaces, and drops them when disposed
const backends = await realBackends({
  natsUrl: process.env.NATS_URL ?? '',
  contactPoints,
  localDataCenter,
  streamReplicas: Number(streamReplicas),
  replication,
  keyspaceSuffix: suffix,
  dropKeyspaces: true,
});
// no rate limits (one tenant drives the whole fleet); a big launch may outlast the default 30 s on a loaded machine
const gatewayLimits = { operationsPerSecond: 0, subscriptionsPerSecond: 0, requestTimeoutMs: 120_000 };
const REVISION_DEADLINE_MS = 3_600_000;

let dispose: () => Promise<void>;
if (mode === 'one') {
  const system: System = await startSystem({
    backends,
    clusters,
    agents: 'external',
    deploymentSuffix: suffix,
    statusConsumerStart: 'new',
    revisionDeadlineMs: REVISION_DEADLINE_MS,
    gatewayLimits,
  });
  dispose = () => system.dispose(); // its backends' too
  process.stdout.write(`ready ${system.url} ${system.gateway.wsUrl} ${system.gateway.metricsUrl} ${suffix}\n`);
} else {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-fleet-'));
  const topology = await startTopology({
    // built JavaScript, as the image runs it (bench/fleet.ts builds first)
    mode: 'dist',
    stateDir,
    clusters,
    agents: false,
    deploymentSuffix: suffix,
    nodeArgs: profileArgs(),
    // FLEET_ECHO=1: every service's log on stderr, each line named by its process
    echo: process.env.FLEET_ECHO === '1',
    env: {
      NATS_URL: process.env.NATS_URL ?? '',
      NATS_STREAM_REPLICAS: streamReplicas,
      CASSANDRA_CONTACT_POINTS: contactPoints.join(','),
      CASSANDRA_LOCAL_DC: localDataCenter,
      CASSANDRA_KEYSPACE_SUFFIX: suffix,
      NVCF_INTERNAL_SECRET: randomBytes(24).toString('hex'),
      NVCF_CURSOR_SECRET: randomBytes(24).toString('hex'),
      STATUS_CONSUMER_START: 'new',
      REVISION_DEADLINE_MS: String(REVISION_DEADLINE_MS),
      LOG_LEVEL: 'error',
    },
    gatewayEnv: {
      AUTH_MODE: 'dev',
      AUTH_TOKENS: 'dev-token-a=nca-a',
      GATEWAY_OPERATIONS_PER_SECOND: String(gatewayLimits.operationsPerSecond),
      GATEWAY_SUBSCRIPTIONS_PER_SECOND: String(gatewayLimits.subscriptionsPerSecond),
      GATEWAY_REQUEST_TIMEOUT_MS: String(gatewayLimits.requestTimeoutMs),
    },
  });
  dispose = async () => {
    try {
      await topology.dispose();
      rmSync(stateDir, { recursive: true, force: true });
    } finally {
      await backends.dispose();
    }
  };
  const [gateway] = topology.gateways;
  const metrics = topology.processes().map((p) => p.metricsUrl);
  process.stdout.write(
    `ready ${gateway.url}/graphql ${gateway.url.replace(/^http/, 'ws')}/graphql ${metrics.join(',')} ${suffix}\n`,
  );
}

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void dispose().finally(() => process.exit(0));
});

import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters, statusConsumers, type SystemOptions } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Streams, durableName } from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';

/** NVCF_TEST_BACKENDS=memory skips the suites that need NATS and Cassandra; otherwise they must run. */
export const describeReal: jest.Describe = process.env.NVCF_TEST_BACKENDS === 'memory' ? describe.skip : describe;

export function realEnv() {
  const { NATS_URL, CASSANDRA_CONTACT_POINTS, CASSANDRA_LOCAL_DC } = process.env;
  if (!NATS_URL || !CASSANDRA_CONTACT_POINTS) {
    throw new Error(
      'NATS_URL and CASSANDRA_CONTACT_POINTS are not set: npm test starts them (jest global setup), or run `npm run services:up` and export .services/env; NVCF_TEST_BACKENDS=memory skips these suites',
    );
  }
  return {
    natsUrl: NATS_URL,
    contactPoints: CASSANDRA_CONTACT_POINTS.split(','),
    localDataCenter: CASSANDRA_LOCAL_DC ?? 'datacenter1',
  };
}

/** Where a real system's backends are; the run's shared NATS and Cassandra unless a fault test brings its own. */
export interface RealWhere {
  natsUrl?: string;
  cassandra?: { contactPoints: string[]; localDataCenter: string };
}

/**
 * The same system on NATS JetStream and Cassandra. Each system gets its own keyspaces and
 * cluster ids, so systems of one run never see each other's clusters, instances or durables.
 */
export async function startRealSystem(overrides: SystemOptions = {}, where: RealWhere = {}) {
  const suffix = `_${randomBytes(4).toString('hex')}`;
  const env = realEnv();
  const backends = await realBackends({
    natsUrl: where.natsUrl ?? env.natsUrl,
    contactPoints: where.cassandra?.contactPoints ?? env.contactPoints,
    localDataCenter: where.cassandra?.localDataCenter ?? env.localDataCenter,
    keyspaceSuffix: suffix,
    dropKeyspaces: !where.cassandra, // a private Cassandra goes away whole (and may be down at the end)
  });
  try {
    const system = await startSystem({ clusters: demoClusters(suffix.replace('_', '-')), ...overrides, backends });
    await untilStatusBacklogDrained(where.natsUrl ?? realEnv().natsUrl, overrides.deploymentSuffix ?? '').catch(
      async (err) => {
        await system.dispose();
        throw err;
      },
    );
    return system;
  } catch (err) {
    await backends.dispose();
    throw err;
  }
}

/**
 * Systems on one NATS share the status stream's durables (a deployment's replicas must). A suite
 * that published thousands of status events (the stream suite does) leaves them behind, and the
 * next system would start its first rollout while its consumers still work through someone
 * else's events, missing a 4 s revision deadline. So a system is ready once they have caught up.
 */
export async function untilStatusBacklogDrained(natsUrl: string, suffix: string) {
  const nc = await connect({ servers: natsUrl, name: 'test-backlog-check' });
  try {
    const jsm = await jetstreamManager(nc);
    const durables = Object.values(statusConsumers(suffix)).map((c) => durableName(Streams.status.name, c));
    await waitUntil(
      async () => {
        for (const d of durables) {
          const ci = await jsm.consumers.info(Streams.status.name, d);
          if (ci.num_pending + ci.num_ack_pending > 0) return false;
        }
        return true;
      },
      {
        timeoutMs: 240_000,
        intervalMs: 250,
        what: `the status stream's shared durables to drain (${durables.join(', ')})`,
      },
    );
  } finally {
    await nc.close();
  }
}

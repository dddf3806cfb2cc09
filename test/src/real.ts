import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters, type SystemOptions } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { allStreams } from '@nvcf/contracts';

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
    // durables of its own, starting at new events: no system waits for another's backlog
    const system = await startSystem({
      clusters: demoClusters(suffix.replace('_', '-')),
      ...overrides,
      deploymentSuffix: `${suffix}${overrides.deploymentSuffix ?? ''}`,
      statusConsumerStart: 'new',
      backends,
    });
    const dispose = system.dispose.bind(system);
    // its durables go with it, or a developer's NATS collects hundreds of them
    const disposeAll = async () => {
      await dispose();
      await deleteDurables(where.natsUrl ?? env.natsUrl, suffix.replace('_', '')).catch(() => {});
    };
    return Object.assign(system, { dispose: disposeAll, [Symbol.asyncDispose]: disposeAll });
  } catch (err) {
    await backends.dispose();
    throw err;
  }
}

/** Deletes every durable whose name carries `tag` (a system's random suffix), on every stream. */
async function deleteDurables(natsUrl: string, tag: string) {
  const nc = await connect({ servers: natsUrl, name: 'test-durable-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    for (const stream of allStreams) {
      for await (const ci of jsm.consumers.list(stream.name)) {
        if (ci.name.includes(tag)) await jsm.consumers.delete(stream.name, ci.name);
      }
    }
  } finally {
    await nc.close();
  }
}

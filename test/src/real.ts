import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters, type SystemOptions } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { MIGRATIONS_DIR } from '@nvcf/local/topology';
import { createMigrator } from '@nvcf/cassandra';
import { deleteDurables } from './durables.js';

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
  /** keyspaces and durables under this suffix (a fresh random one unless given) */
  suffix?: string;
  /** leave the keyspaces and durables on dispose, for a second start on the same suffix */
  keep?: boolean;
}

/**
 * The same system on NATS JetStream and Cassandra. Each system gets its own keyspaces and
 * cluster ids, so systems of one run never see each other's clusters, instances or durables.
 */
export async function startRealSystem(overrides: SystemOptions = {}, where: RealWhere = {}) {
  const suffix = where.suffix ?? `_${randomBytes(4).toString('hex')}`;
  const env = realEnv();
  const backends = await realBackends({
    natsUrl: where.natsUrl ?? env.natsUrl,
    contactPoints: where.cassandra?.contactPoints ?? env.contactPoints,
    localDataCenter: where.cassandra?.localDataCenter ?? env.localDataCenter,
    keyspaceSuffix: suffix,
    // a private Cassandra goes away whole (and may be down at the end)
    dropKeyspaces: !where.cassandra && !where.keep,
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
      if (where.keep) return;
      await deleteDurables(where.natsUrl ?? env.natsUrl, suffix.replace('_', '')).catch(() => {});
    };
    return Object.assign(system, { dispose: disposeAll, [Symbol.asyncDispose]: disposeAll });
  } catch (err) {
    await backends.dispose();
    throw err;
  }
}

/**
 * For a production-shaped topology (one process per service) on the run's NATS and Cassandra: its
 * keyspaces migrated under `suffix`, and the environment every one of its processes shares
 * (durables of its own starting at new events, fresh secrets, quiet logs).
 */
export async function topologyEnv(suffix: string): Promise<Record<string, string>> {
  const { natsUrl, contactPoints, localDataCenter } = realEnv();
  {
    await using migrator = await createMigrator({
      contactPoints,
      localDataCenter,
      dir: MIGRATIONS_DIR,
      keyspaceSuffix: suffix,
    });
    await migrator.up();
  }
  return {
    NATS_URL: natsUrl,
    STATUS_CONSUMER_START: 'new',
    CASSANDRA_CONTACT_POINTS: contactPoints.join(','),
    CASSANDRA_LOCAL_DC: localDataCenter,
    CASSANDRA_KEYSPACE_SUFFIX: suffix,
    NVCF_INTERNAL_SECRET: randomBytes(24).toString('hex'),
    NVCF_CURSOR_SECRET: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'warn',
  };
}

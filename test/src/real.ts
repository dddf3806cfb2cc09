import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters, type SystemOptions } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';

/** NVCF_TEST_BACKENDS=memory skips the suites that need NATS and Cassandra; otherwise they must run. */
export const describeReal: jest.Describe = process.env.NVCF_TEST_BACKENDS === 'memory' ? describe.skip : describe;

export function realEnv() {
  const { NATS_URL, CASSANDRA_CONTACT_POINTS, CASSANDRA_LOCAL_DC } = process.env;
  if (!NATS_URL || !CASSANDRA_CONTACT_POINTS) {
    throw new Error('NATS_URL and CASSANDRA_CONTACT_POINTS are not set: npm test starts them (jest global setup), or run `npm run services:up` and export .services/env; NVCF_TEST_BACKENDS=memory skips these suites');
  }
  return { natsUrl: NATS_URL, contactPoints: CASSANDRA_CONTACT_POINTS.split(','), localDataCenter: CASSANDRA_LOCAL_DC ?? 'datacenter1' };
}

/**
 * The same system on NATS JetStream and Cassandra. Each system gets its own keyspaces and
 * cluster ids, so systems of one run never see each other's clusters, instances or durables.
 */
export async function startRealSystem(overrides: SystemOptions = {}, where: { natsUrl?: string } = {}) {
  const suffix = `_${randomBytes(4).toString('hex')}`;
  const backends = await realBackends({ ...realEnv(), ...where, keyspaceSuffix: suffix, dropKeyspaces: true });
  try {
    return await startSystem({ clusters: demoClusters(suffix.replace('_', '-')), ...overrides, backends });
  } catch (err) {
    await backends.dispose();
    throw err;
  }
}

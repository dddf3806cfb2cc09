/**
 * Shared by every Cassandra-backed test: connection from the environment, and a client on
 * keyspaces migrated `up` from deploy/migrations. Tests (and lib/cassandra/src/migrate-main.ts) are the only
 * places that read the environment.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCassandraClient, createMigrator, MigrationRefused, type CassandraClient } from '../src/index.js';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy/migrations');

/** NVCF_TEST_BACKENDS=memory skips the Cassandra suites; otherwise a missing Cassandra fails them. */
export const describeCassandra: jest.Describe = process.env.NVCF_TEST_BACKENDS === 'memory' ? describe.skip : describe;

export function cassandraConnection(): { contactPoints: string[]; localDataCenter: string } {
  const points = process.env.CASSANDRA_CONTACT_POINTS;
  if (!points) {
    throw new Error(
      'CASSANDRA_CONTACT_POINTS is not set: start one with `npx tsx --conditions=source test/services/cli.ts up cassandra` and export what it prints, ' +
        'or run with NVCF_TEST_BACKENDS=memory to skip the Cassandra suites',
    );
  }
  return {
    contactPoints: points.split(',').map((p) => p.trim()),
    localDataCenter: process.env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `up` on `keyspaces`, waiting out another runner (a parallel jest worker, a global setup) that holds the ledger. */
export async function migrateUp(keyspaces: string[], waitMs = 60_000): Promise<void> {
  await using migrator = await createMigrator({ ...cassandraConnection(), dir: MIGRATIONS_DIR, keyspaces });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await migrator.up();
      return;
    } catch (err) {
      const busy = err instanceof MigrationRefused && (err.reason === 'concurrent' || err.reason === 'dirty');
      if (!busy || Date.now() > deadline) throw err;
      await sleep(500);
    }
  }
}

/** A client for store tests, after the store's keyspace is migrated up. */
export async function migratedClient(keyspace: string): Promise<CassandraClient> {
  await migrateUp([keyspace]);
  return createCassandraClient(cassandraConnection());
}

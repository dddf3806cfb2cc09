import type { Client } from 'cassandra-driver';
import { applied } from '../lwt.js';
import { MigrationRefused } from '../errors.js';

export interface LedgerState {
  version: number;
  dirty: boolean;
  /** false until the first migration of the keyspace begins */
  exists: boolean;
}

const EMPTY: LedgerState = { version: 0, dirty: false, exists: false };

/**
 * The migration ledger: one row per keyspace in `<ledgerKeyspace>.ledger`. Every transition
 * is a lightweight transaction, so two runners racing on one keyspace cannot both apply a file:
 * the loser's begin is not applied and it stops.
 */
export function ledger(client: Client, ks: string) {
  const table = `${ks}.ledger`;
  const P = { prepare: true };

  async function read(keyspace: string): Promise<LedgerState> {
    const rs = await client.execute(`SELECT version, dirty FROM ${table} WHERE keyspace_name = ?`, [keyspace], P);
    const row = rs.first();
    return row ? { version: row.get('version') as number, dirty: row.get('dirty') === true, exists: true } : EMPTY;
  }

  async function moved(keyspace: string, doing: string): Promise<never> {
    const now = await read(keyspace);
    throw new MigrationRefused(
      'concurrent',
      `${keyspace}: the ledger changed while ${doing} (now version ${now.version}${now.dirty ? ', dirty' : ''}); is another migrator running?`,
    );
  }

  return {
    table,
    read,

    /** false when the ledger table does not exist yet (nothing was ever migrated) */
    async present(): Promise<boolean> {
      const q = 'SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?';
      return (await client.execute(q, [ks, 'ledger'], P)).rowLength > 0;
    },

    async create(replication: string): Promise<void> {
      await client.execute(`CREATE KEYSPACE IF NOT EXISTS ${ks} WITH replication = ${replication}`);
      await client.execute(
        `CREATE TABLE IF NOT EXISTS ${table} (keyspace_name text PRIMARY KEY, version int, dirty boolean, updated_at timestamp)`,
      );
    },

    /** Marks `keyspace` dirty at `version`, only from the clean state `from` that was read. */
    async begin(keyspace: string, from: LedgerState, version: number): Promise<void> {
      const ok = from.exists
        ? await applied(
            client,
            `UPDATE ${table} SET version = ?, dirty = true, updated_at = toTimestamp(now()) WHERE keyspace_name = ? IF version = ? AND dirty = false`,
            [version, keyspace, from.version],
          )
        : await applied(
            client,
            `INSERT INTO ${table} (keyspace_name, version, dirty, updated_at) VALUES (?, ?, true, toTimestamp(now())) IF NOT EXISTS`,
            [keyspace, version],
          );
      if (!ok) await moved(keyspace, `beginning version ${version}`);
    },

    async finish(keyspace: string, version: number): Promise<void> {
      const ok = await applied(
        client,
        `UPDATE ${table} SET dirty = false, updated_at = toTimestamp(now()) WHERE keyspace_name = ? IF version = ? AND dirty = true`,
        [keyspace, version],
      );
      if (!ok) await moved(keyspace, `finishing version ${version}`);
    },
  };
}

export type Ledger = ReturnType<typeof ledger>;

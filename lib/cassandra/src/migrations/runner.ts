import { createCassandraClient, keyspaceName, type CassandraClient } from '../client.js';
import { MigrationFailed, MigrationRefused } from '../errors.js';
import { loadMigrations, type Migration } from './files.js';
import { ledger, type LedgerState } from './ledger.js';
import { copyRows, parseCopyRows } from './copy.js';
import { LOCAL_REPLICATION, replicationCql, type Replication } from './replication.js';

export interface MigratorOptions {
  contactPoints: string[];
  localDataCenter: string;
  /** one folder per keyspace holding NNN_name.cql files (deploy/migrations) */
  dir: string;
  /** manage only these keyspaces (default: every folder in `dir`) */
  keyspaces?: string[];
  /**
   * Appended to every keyspace name (folder `nvcf_api` → keyspace `nvcf_api<suffix>`), so
   * isolated copies (one per test system) can share a cluster. Files use unqualified names.
   */
  keyspaceSuffix?: string;
  replication?: Replication;
  /** where the ledger lives (default schema_migrations) */
  ledgerKeyspace?: string;
  /** after each file, how long to wait for its SAI indexes to become queryable */
  indexWaitMs?: number;
  log?: (line: string) => void;
}

export interface KeyspaceStatus {
  keyspace: string;
  version: number;
  dirty: boolean;
  /** highest version available in the folder */
  latest: number;
  pending: number[];
}

export interface AppliedMigration {
  keyspace: string;
  version: number;
  file: string;
  ms: number;
}

export interface Migrator extends AsyncDisposable {
  status(): Promise<KeyspaceStatus[]>;
  /** applies every pending file of one keyspace (default: all), in order; stops at the first failure */
  up(keyspace?: string): Promise<AppliedMigration[]>;
  /** moves one keyspace from the clean version `expect` exactly to `target`, never backward */
  goto(keyspace: string, target: number, opts: { expect: number }): Promise<AppliedMigration[]>;
  dispose(): Promise<void>;
}

const SLOW_DDL_MS = 60_000;

export async function createMigrator(opts: MigratorOptions): Promise<Migrator> {
  const suffix = opts.keyspaceSuffix ?? '';
  const all = new Map([...loadMigrations(opts.dir)].map(([k, v]) => [`${k}${suffix}`, v]));
  const names = (opts.keyspaces?.map((k) => `${k}${suffix}`) ?? [...all.keys()].sort()).map(keyspaceName);
  const replication = replicationCql(opts.replication ?? LOCAL_REPLICATION);
  const log = opts.log ?? (() => {});
  const conn = {
    contactPoints: opts.contactPoints,
    localDataCenter: opts.localDataCenter,
    requestTimeoutMs: SLOW_DDL_MS,
  };
  const admin = await createCassandraClient(conn);
  const book = ledger(admin, keyspaceName(opts.ledgerKeyspace ?? 'schema_migrations'));
  const bound = new Map<string, CassandraClient>();

  const migrationsOf = (ks: string): Migration[] => {
    const list = names.includes(ks) ? all.get(ks) : undefined;
    if (!list) throw new MigrationRefused('unknown-keyspace', `no migrations for keyspace '${ks}' in ${opts.dir}`);
    return list;
  };

  // Files use unqualified table names, so each keyspace gets a client bound to it (protocol v4 has no per-query keyspace).
  const clientFor = async (ks: string) => {
    let c = bound.get(ks);
    if (!c) bound.set(ks, (c = await createCassandraClient({ ...conn, keyspace: ks })));
    return c;
  };

  async function waitForIndexes(ks: string): Promise<void> {
    // node-local view: enough to avoid "index not queryable" right after a migration on the node we talk to
    const q = 'SELECT index_name, is_queryable FROM system_views.sai_column_indexes WHERE keyspace_name = ?';
    const deadline = Date.now() + (opts.indexWaitMs ?? 60_000);
    for (;;) {
      const waiting = (await admin.execute(q, [ks], { prepare: true })).rows.filter(
        (r) => r.get('is_queryable') !== true,
      );
      if (waiting.length === 0) return;
      if (Date.now() > deadline)
        return log(`${ks}: indexes still building: ${waiting.map((r) => r.get('index_name') as string).join(', ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function apply(ks: string, from: LedgerState, files: Migration[]): Promise<AppliedMigration[]> {
    const done: AppliedMigration[] = [];
    if (files.length === 0) return done;
    await admin.execute(`CREATE KEYSPACE IF NOT EXISTS ${ks} WITH replication = ${replication}`);
    const client = await clientFor(ks);
    let state = from;
    for (const m of files) {
      await book.begin(ks, state, m.version);
      const t0 = Date.now();
      for (const [i, stmt] of m.statements.entries()) {
        try {
          const copy = parseCopyRows(stmt);
          if (!copy) await client.execute(stmt);
          else log(`${ks}: copied ${await copyRows(client, copy)} rows from ${copy.from} to ${copy.to}`);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          throw new MigrationFailed(
            ks,
            m.version,
            `${ks}/${m.file}: statement ${i + 1} failed: ${why}; the ledger stays dirty at version ${m.version}`,
            { cause: err },
          );
        }
      }
      await waitForIndexes(ks);
      await book.finish(ks, m.version);
      state = { version: m.version, dirty: false, exists: true };
      done.push({ keyspace: ks, version: m.version, file: m.file, ms: Date.now() - t0 });
      log(`${ks}: applied ${m.file} in ${Date.now() - t0} ms`);
    }
    return done;
  }

  const refuseDirty = (ks: string, s: LedgerState) => {
    if (!s.dirty) return;
    const repair = `UPDATE ${book.table} SET version = <v>, dirty = false WHERE keyspace_name = '${ks}'`;
    const why = `${ks}: the ledger is dirty at version ${s.version} (a migration failed or is running)`;
    throw new MigrationRefused(
      'dirty',
      `${why}; repair the schema by hand, then record the version it matches: ${repair}`,
    );
  };

  const migrator: Migrator = {
    async status() {
      const present = await book.present();
      return Promise.all(
        names.map(async (ks) => {
          const s = present ? await book.read(ks) : { version: 0, dirty: false };
          const files = all.get(ks) ?? [];
          return {
            keyspace: ks,
            version: s.version,
            dirty: s.dirty,
            latest: files.at(-1)?.version ?? 0,
            pending: files.filter((f) => f.version > s.version).map((f) => f.version),
          };
        }),
      );
    },

    async up(keyspace) {
      const targets = keyspace === undefined ? names : [keyspaceName(keyspace)];
      for (const ks of targets) migrationsOf(ks);
      await book.create(replication);
      const done: AppliedMigration[] = [];
      for (const ks of targets) {
        const s = await book.read(ks);
        refuseDirty(ks, s);
        done.push(
          ...(await apply(
            ks,
            s,
            migrationsOf(ks).filter((m) => m.version > s.version),
          )),
        );
      }
      return done;
    },

    async goto(keyspace, target, { expect }) {
      const ks = keyspaceName(keyspace);
      const files = migrationsOf(ks);
      await book.create(replication);
      const s = await book.read(ks);
      refuseDirty(ks, s);
      if (s.version !== expect)
        throw new MigrationRefused(
          'unexpected-version',
          `${ks}: the ledger is at version ${s.version}, not the expected ${expect}; nothing applied`,
        );
      if (target < s.version)
        throw new MigrationRefused(
          'backward',
          `${ks}: refusing to move the ledger backward from ${s.version} to ${target}; write a new migration that undoes the change`,
        );
      if (target !== s.version && !files.some((f) => f.version === target)) {
        throw new MigrationRefused(
          'unknown-target',
          `${ks}: there is no migration with version ${target} (latest is ${files.at(-1)?.version ?? 0})`,
        );
      }
      return apply(
        ks,
        s,
        files.filter((f) => f.version > s.version && f.version <= target),
      );
    },

    async dispose() {
      await Promise.all([...bound.values()].map((c) => c.dispose()));
      await admin.dispose();
    },
    [Symbol.asyncDispose]: () => migrator.dispose(),
  };
  return migrator;
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createCassandraClient, createMigrator, type KeyspaceStatus, type Replication } from '@nvcf/cassandra';
import { BackupFailed, BackupRefused, describeFile, type KeyspaceEntry, type Manifest } from './manifest.js';
import { columnsOf, exportTable, holdsRows, importTable, tablesOf } from './cassandra-tables.js';

export interface CassandraSetOptions {
  contactPoints: string[];
  localDataCenter: string;
  /** this release's migrations, one folder per keyspace */
  migrationsDir: string;
  /** CASSANDRA_KEYSPACE_SUFFIX: `<folder><suffix>` are the keyspaces read or written */
  keyspaceSuffix: string;
  /** how restore creates a keyspace that does not exist (CASSANDRA_REPLICATION) */
  replication?: Replication;
  ledgerKeyspace?: string;
  log: (line: string) => void;
}

const folderOf = (keyspace: string, suffix: string) => (suffix ? keyspace.slice(0, -suffix.length) : keyspace);

async function openMigrator(o: CassandraSetOptions) {
  return createMigrator({
    contactPoints: o.contactPoints,
    localDataCenter: o.localDataCenter,
    dir: o.migrationsDir,
    keyspaceSuffix: o.keyspaceSuffix,
    replication: o.replication,
    ledgerKeyspace: o.ledgerKeyspace,
    log: (line) => o.log(`cassandra: ${line}`),
  });
}

function backupable(s: KeyspaceStatus): void {
  if (s.dirty)
    throw new BackupFailed(
      `${s.keyspace}: the migration ledger is dirty at version ${s.version} (a migration failed or is running): its rows match no schema version; repair it (npm run migrate -- status) and back up again`,
    );
  if (s.version === 0) throw new BackupFailed(`${s.keyspace}: never migrated, nothing to back up (migrate up first)`);
}

/** Every table of every keyspace of this release, as JSON lines under `<dir>/cassandra/<folder>/`, with its ledger version. */
export async function backupCassandra(o: CassandraSetOptions, dir: string): Promise<Manifest['cassandra']> {
  const startedAt = new Date().toISOString();
  await using migrator = await openMigrator(o);
  await using client = await createCassandraClient({
    contactPoints: o.contactPoints,
    localDataCenter: o.localDataCenter,
  });
  const before = await migrator.status();
  before.forEach(backupable);
  const keyspaces: KeyspaceEntry[] = [];
  for (const s of before) {
    const folder = folderOf(s.keyspace, o.keyspaceSuffix);
    mkdirSync(path.join(dir, 'cassandra', folder), { recursive: true });
    const entry: KeyspaceEntry = { folder, name: s.keyspace, ledgerVersion: s.version, tables: [] };
    for (const table of await tablesOf(client, s.keyspace)) {
      const file = `cassandra/${folder}/${table}.jsonl`;
      const columns = await columnsOf(client, s.keyspace, table);
      const rows = await exportTable(client, s.keyspace, table, columns, path.join(dir, file));
      entry.tables.push({ name: table, rows, columns, ...(await describeFile(dir, file)) });
    }
    keyspaces.push(entry);
    o.log(
      `cassandra: ${s.keyspace} at ledger version ${s.version}: ${entry.tables.map((t) => `${t.name} ${t.rows}`).join(', ')}`,
    );
  }
  // a migration that ran meanwhile changed the schema under the copy: it would restore at the wrong version
  const after = await migrator.status();
  for (const s of after) {
    const was = before.find((b) => b.keyspace === s.keyspace);
    if (s.dirty || s.version !== was?.version)
      throw new BackupFailed(
        `${s.keyspace}: the ledger moved during the backup (version ${was?.version} to ${s.version}${s.dirty ? ', dirty' : ''}): back up again after the migration`,
      );
  }
  return { keyspaceSuffix: o.keyspaceSuffix, startedAt, finishedAt: new Date().toISOString(), keyspaces };
}

export interface KeyspacePlan {
  entry: KeyspaceEntry;
  /** the keyspace written: the set's folder with the target's suffix */
  keyspace: string;
  /** the target's ledger version now: migrated from here to the set's before the rows go in */
  from: number;
  /** the target holds rows (and --replace was given): its tables are truncated first */
  truncate: boolean;
}

/** Reads only: refuses a set this store or release cannot take, and says what the restore will do per keyspace. */
export async function planCassandra(
  o: CassandraSetOptions,
  set: Manifest['cassandra'],
  replace: boolean,
): Promise<KeyspacePlan[]> {
  await using migrator = await openMigrator(o);
  await using client = await createCassandraClient({
    contactPoints: o.contactPoints,
    localDataCenter: o.localDataCenter,
  });
  const targets = await migrator.status();
  const plans: KeyspacePlan[] = [];
  for (const entry of set.keyspaces) {
    const keyspace = `${entry.folder}${o.keyspaceSuffix}`;
    const t = targets.find((s) => s.keyspace === keyspace);
    const M = entry.ledgerVersion;
    if (!t)
      throw new BackupRefused(
        'BACKUP_INCOMPATIBLE',
        `the set holds keyspace ${entry.folder}, which this release has no migrations for (${o.migrationsDir})`,
      );
    if (M > t.latest)
      throw new BackupRefused(
        'BACKUP_INCOMPATIBLE',
        `${keyspace}: the set is at ledger version ${M}, newer than this release's migrations (up to ${t.latest}): restore with the release that took it`,
      );
    if (t.dirty)
      throw new BackupRefused(
        'BACKUP_INCOMPATIBLE',
        `${keyspace}: the target's migration ledger is dirty at version ${t.version}: repair it (npm run migrate -- status) or drop the keyspace, then restore`,
      );
    if (t.version > M)
      throw new BackupRefused(
        'BACKUP_INCOMPATIBLE',
        `${keyspace}: restore into a store migrated to ${t.version}, the set is at ${M} < ${t.version}: ` +
          `run restore against a store at ${M} (an empty one: drop the keyspace — DROP KEYSPACE ${keyspace}; ` +
          `DELETE FROM ${o.ledgerKeyspace ?? 'schema_migrations'}.ledger WHERE keyspace_name = '${keyspace}' — or use a new Cassandra; ` +
          `restore migrates it to ${M} itself), then \`npm run migrate -- up\``,
      );
    const rows = await holdsRows(client, keyspace);
    if (rows && !replace)
      throw new BackupRefused(
        'RESTORE_TARGET_NOT_EMPTY',
        `${keyspace} holds rows: restore into an empty store, or pass --replace to truncate its tables first`,
      );
    plans.push({ entry, keyspace, from: t.version, truncate: rows });
  }
  for (const t of targets)
    if (!plans.some((p) => p.keyspace === t.keyspace))
      o.log(`cassandra: ${t.keyspace} is not in the set: left as it is (migrate up creates it)`);
  return plans;
}

/** Brings each planned keyspace to the set's ledger version with this release's migrations, then writes its rows. */
export async function restoreCassandra(o: CassandraSetOptions, dir: string, plans: KeyspacePlan[]): Promise<void> {
  await using migrator = await openMigrator(o);
  await using client = await createCassandraClient({
    contactPoints: o.contactPoints,
    localDataCenter: o.localDataCenter,
  });
  for (const p of plans) {
    const M = p.entry.ledgerVersion;
    // TRUNCATE removes data without tombstones: the restored cells, written at their old timestamps, stay visible
    if (p.truncate)
      for (const t of await tablesOf(client, p.keyspace)) await client.execute(`TRUNCATE ${p.keyspace}.${t}`);
    if (p.from < M) await migrator.goto(p.keyspace, M, { expect: p.from });
    for (const table of p.entry.tables) {
      const have = (await columnsOf(client, p.keyspace, table.name)).map((c) => `${c.name} ${c.kind} ${c.type}`);
      const want = table.columns.map((c) => `${c.name} ${c.kind} ${c.type}`);
      if (have.join() !== want.join())
        throw new BackupFailed(
          `${p.keyspace}.${table.name} at ledger version ${M} is not the table the set was read from (columns ${have.join(', ') || 'none'}; the set has ${want.join(', ')}): was the schema changed by hand?`,
        );
      const n = await importTable(client, p.keyspace, table.name, path.join(dir, table.file));
      if (n !== table.rows) throw new BackupFailed(`${table.file}: wrote ${n} rows, the manifest says ${table.rows}`);
    }
    o.log(
      `cassandra: ${p.keyspace} restored at ledger version ${M}: ${p.entry.tables.map((t) => `${t.name} ${t.rows}`).join(', ')}`,
    );
  }
}

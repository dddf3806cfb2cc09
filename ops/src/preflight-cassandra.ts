import { createMigrator, type KeyspaceStatus } from '@nvcf/cassandra';
import type { PreflightCheck } from './preflight.js';

export interface LedgerCheckOptions {
  contactPoints: string[];
  localDataCenter: string;
  keyspaceSuffix?: string;
  migrationsDir: string;
  ledgerKeyspace?: string;
}

function ledgerCheck(s: KeyspaceStatus): PreflightCheck {
  const check = `ledger ${s.keyspace}`;
  if (s.dirty)
    return {
      check,
      status: 'FAIL',
      detail: `dirty at version ${s.version}: a migration failed or is running (npm run migrate -- status)`,
    };
  if (s.version < s.latest) {
    const what = s.version === 0 ? 'never migrated' : `at version ${s.version}`;
    return {
      check,
      status: 'FAIL',
      detail: `${what}, this release expects ${s.latest} (pending ${s.pending.join(', ')}): run npm run migrate -- up`,
    };
  }
  // expand-only migrations: a schema one release ahead still serves this one
  if (s.version > s.latest)
    return {
      check,
      status: 'WARN',
      detail: `at version ${s.version}, ahead of this release's ${s.latest} (a later release migrated it)`,
    };
  return { check, status: 'OK', detail: `version ${s.version}, clean` };
}

/** Every keyspace of this release's migration folders: ledger clean, at the newest file's version. Reads only. */
export async function ledgerChecks(o: LedgerCheckOptions): Promise<PreflightCheck[]> {
  let migrator;
  try {
    migrator = await createMigrator({
      contactPoints: o.contactPoints,
      localDataCenter: o.localDataCenter,
      dir: o.migrationsDir,
      keyspaceSuffix: o.keyspaceSuffix,
      ledgerKeyspace: o.ledgerKeyspace,
    });
  } catch (err) {
    const cause =
      (err as Error).cause instanceof Error ? `: ${((err as Error).cause as Error).message.split('\n')[0]}` : '';
    return [{ check: 'cassandra', status: 'FAIL', detail: `${(err as Error).message}${cause}` }];
  }
  try {
    const statuses = await migrator.status();
    return [
      {
        check: 'cassandra',
        status: 'OK',
        detail: `connected to ${o.contactPoints.join(',')} (dc ${o.localDataCenter})`,
      },
      ...statuses.map(ledgerCheck),
    ];
  } catch (err) {
    return [
      { check: 'cassandra', status: 'FAIL', detail: `reading the migration ledger failed: ${(err as Error).message}` },
    ];
  } finally {
    await migrator.dispose();
  }
}

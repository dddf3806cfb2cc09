/**
 * npm run migrate -- status
 * npm run migrate -- up [--keyspace K]
 * npm run migrate -- goto V --expect V0 --keyspace K
 * In production (the image): `node lib/cassandra/dist/migrate-main.js up`, or the launcher's `migrate up`.
 *
 * Connection: CASSANDRA_CONTACT_POINTS (host:port,…) and CASSANDRA_LOCAL_DC from the environment,
 * else from .services/env (written by `npm run services:up`). CASSANDRA_KEYSPACE_SUFFIX, as the
 * services read it, appends to every keyspace name (K names the folder in deploy/migrations). CASSANDRA_REPLICATION (or
 * --replication) sets how new keyspaces replicate: SimpleStrategy:1 (default, one local node) or,
 * in production, NetworkTopologyStrategy:<dc>=3. Exit codes: 0 done, 1 failed (ledger left
 * dirty), 2 usage, 3 refused (nothing changed).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keyspaceName } from './client.js';
import { createMigrator, type AppliedMigration } from './migrations/runner.js';
import { parseReplication } from './migrations/replication.js';
import { MigrationFailed, MigrationRefused } from './errors.js';
import { readEnvFile } from '@nvcf/config';

// the repository (or image) root, from src/ and from dist/ alike
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const USAGE =
  'usage: migrate status | up [--keyspace K] | goto V --expect V0 --keyspace K  [--dir D] [--replication R]';

class UsageError extends Error {
  override name = 'UsageError';
}

/** Bad input found by a parser becomes a usage error (exit 2), not a failure. */
function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
}

const version = (flag: string, v: string | undefined) => {
  if (v === undefined || !/^\d+$/.test(v))
    throw new UsageError(`${flag} needs a version number (got ${v ?? 'nothing'})`);
  return Number(v);
};

// progress goes to stderr as it happens (the runner's log); stdout gets the outcome
const print = (done: AppliedMigration[]) =>
  console.log(
    done.length === 0 ? 'nothing to apply' : `applied ${done.map((d) => `${d.keyspace}/${d.file}`).join(', ')}`,
  );

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = usage(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        keyspace: { type: 'string' },
        expect: { type: 'string' },
        dir: { type: 'string' },
        replication: { type: 'string' },
      },
    }),
  );
  const [cmd, target] = positionals;
  if (cmd !== 'status' && cmd !== 'up' && cmd !== 'goto') throw new UsageError(`unknown command '${cmd ?? ''}'`);
  if (cmd === 'goto' && !values.keyspace) throw new UsageError('goto needs --keyspace');
  const move =
    cmd === 'goto' ? { target: version('goto', target), expect: version('--expect', values.expect) } : undefined;

  // the environment wins over the file, so a deploy job's settings are never shadowed by a dev leftover
  const env = { ...readEnvFile(path.join(ROOT, '.services', 'env')), ...process.env };
  const points = env.CASSANDRA_CONTACT_POINTS;
  if (!points)
    throw new UsageError(
      'CASSANDRA_CONTACT_POINTS is not set (and .services/env has none: run `npm run services:up -- cassandra`)',
    );
  const replication = values.replication ?? env.CASSANDRA_REPLICATION;
  const suffix = env.CASSANDRA_KEYSPACE_SUFFIX ?? '';
  if (!/^[a-z0-9_]*$/.test(suffix))
    throw new UsageError(`CASSANDRA_KEYSPACE_SUFFIX may hold only a-z, 0-9 and _ (got '${suffix}')`);
  const parsed = usage(() => ({
    replication: replication ? parseReplication(replication) : undefined,
    keyspace: values.keyspace && keyspaceName(`${values.keyspace}${suffix}`),
  }));

  await using migrator = await createMigrator({
    contactPoints: points
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    dir: values.dir ?? path.join(ROOT, 'deploy', 'migrations'),
    keyspaceSuffix: suffix,
    replication: parsed.replication,
    log: (line) => console.error(`migrate: ${line}`),
  });

  if (cmd === 'status') {
    for (const s of await migrator.status()) {
      const pending = s.dirty
        ? `version ${s.version} failed or is running`
        : s.pending.length
          ? `pending ${s.pending.join(', ')}`
          : 'up to date';
      console.log(
        `${s.keyspace.padEnd(16)} version ${s.version}${s.dirty ? ' DIRTY' : ''}  latest ${s.latest}  ${pending}`,
      );
    }
  } else if (cmd === 'up') {
    print(await migrator.up(parsed.keyspace));
  } else if (move && parsed.keyspace) {
    print(await migrator.goto(parsed.keyspace, move.target, { expect: move.expect }));
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    if (e instanceof UsageError) {
      console.error(`migrate: ${e.message}\n${USAGE}`);
      process.exit(2);
    }
    if (e instanceof MigrationRefused) {
      console.error(`migrate: refused (${e.reason}): ${e.message}`);
      process.exit(3);
    }
    console.error(`migrate: ${e.name}: ${e.message}`);
    if (!(e instanceof MigrationFailed) && e.cause) {
      const cause =
        e.cause instanceof Error ? String(e.cause) : typeof e.cause === 'string' ? e.cause : JSON.stringify(e.cause);
      console.error(`migrate: cause: ${cause.split('\n')[0]}`);
    }
    process.exit(1);
  },
);

/**
 * npm run backup -- <dir> [--helm-release R [--helm-namespace N]]
 * In the image: `node bin/nvcf.js backup <dir>` (mount a volume: the root filesystem is read-only).
 *
 * Writes a backup set into <dir> (new or empty): a snapshot of every stream of this release with
 * its consumers, every table of every keyspace with its migration ledger version, optionally the
 * Helm release's values, and manifest.json (written last). NATS_URL, CASSANDRA_CONTACT_POINTS,
 * CASSANDRA_LOCAL_DC and CASSANDRA_KEYSPACE_SUFFIX from the environment, else from .services/env;
 * HELM_BIN names helm (default: on the PATH). docs/deploy.md#backups.
 * Exit codes: 0 done, 1 failed, 2 usage.
 */
import { UsageError, parseCommand } from './cli.js';
import { takeBackup } from './backup/backup.js';
import { readBackends, releaseOf, reportFailure } from './backup/env.js';

const USAGE = 'usage: backup <dir> [--helm-release R [--helm-namespace N]]';
const log = (line: string) => console.error(`backup: ${line}`);

async function main(argv: string[], processEnv: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommand({
    args: argv,
    allowPositionals: true,
    options: { 'helm-release': { type: 'string' }, 'helm-namespace': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('name one folder to write the backup set into');
  if (values['helm-namespace'] && !values['helm-release'])
    throw new UsageError('--helm-namespace needs --helm-release');
  const backends = readBackends(processEnv);
  const m = await takeBackup({
    ...backends,
    ...releaseOf(processEnv),
    dir: positionals[0],
    helm: values['helm-release']
      ? { release: values['helm-release'], namespace: values['helm-namespace'], bin: backends.helmBin }
      : undefined,
    log,
  });
  const messages = m.nats.streams.reduce((n, s) => n + s.messages, 0);
  const rows = m.cassandra.keyspaces.reduce((n, k) => n + k.tables.reduce((r, t) => r + t.rows, 0), 0);
  console.log(
    [
      `backup set written to ${positionals[0]}`,
      `  streams at ${m.nats.takenAt}: ${m.nats.streams.length} stream(s), ${messages} message(s)`,
      `  cassandra from ${m.cassandra.startedAt} to ${m.cassandra.finishedAt}: ` +
        m.cassandra.keyspaces.map((k) => `${k.name} v${k.ledgerVersion}`).join(', ') +
        `, ${rows} row(s)`,
      ...(m.helm ? [`  helm values of ${m.helm.release}`] : []),
    ].join('\n'),
  );
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFailure('backup', USAGE, err)),
);

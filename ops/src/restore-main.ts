/**
 * npm run restore -- <dir> [--replace] [--stream-replicas N]
 * In the image: `node bin/nvcf.js restore <dir>`.
 *
 * Restores a backup set taken by `backup` into the NATS and Cassandra of the environment (as
 * `backup` reads them; CASSANDRA_KEYSPACE_SUFFIX may differ from the set's). Run it with the
 * control plane stopped. Refuses, before changing anything, a set whose files differ from its
 * manifest, whose ledger is older than the target's or newer than this release's migrations
 * (BACKUP_INCOMPATIBLE), and a target holding data unless --replace (RESTORE_TARGET_NOT_EMPTY).
 * Then: `migrate up` and `streams ensure`. docs/deploy.md#backups.
 * Exit codes: 0 done, 1 failed, 2 usage, 3 refused (nothing changed).
 */
import { UsageError, parseCommand } from './cli.js';
import { restoreBackup } from './backup/backup.js';
import { readBackends, reportFailure } from './backup/env.js';

const USAGE = 'usage: restore <dir> [--replace] [--stream-replicas N]';
const log = (line: string) => console.error(`restore: ${line}`);

async function main(argv: string[], processEnv: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommand({
    args: argv,
    allowPositionals: true,
    options: { replace: { type: 'boolean', default: false }, 'stream-replicas': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('name the folder of one backup set');
  const replicas = values['stream-replicas'];
  if (replicas !== undefined && !/^[1-5]$/.test(replicas))
    throw new UsageError(`--stream-replicas must be 1 to 5 (got '${replicas}')`);
  const backends = readBackends(processEnv);
  const m = await restoreBackup({
    ...backends,
    dir: positionals[0],
    replace: values.replace,
    streamReplicas: replicas === undefined ? backends.streamReplicas : Number(replicas),
    log,
  });
  console.log(
    [
      `restored the backup set in ${positionals[0]} (taken by ${m.version} at ${m.startedAt})`,
      `  streams: ${m.nats.streams.map((s) => `${s.name} ${s.messages}`).join(', ')}`,
      `  cassandra: ${m.cassandra.keyspaces.map((k) => `${k.folder} v${k.ledgerVersion}`).join(', ')}`,
      'next: `npm run migrate -- up` and `npm run streams -- ensure` (image: `migrate up`, `streams ensure`), then start the control plane',
      ...(m.helm
        ? [`  the Helm values of ${m.helm.release} are in ${m.helm.file}: helm upgrade --install … -f it`]
        : []),
    ].join('\n'),
  );
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFailure('restore', USAGE, err)),
);

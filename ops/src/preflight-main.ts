/**
 * npm run preflight [-- --json] [--keyspace-suffix S] [--stream-replicas N] [--dir D]
 *
 * NATS_URL, CASSANDRA_CONTACT_POINTS (host:port,…) and CASSANDRA_LOCAL_DC from the
 * environment, else from .services/env (written by `npm run services:up`); the environment
 * wins. Exit codes: 0 every check passed (warnings allowed), 1 a check failed, 2 usage.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEnvFile } from '@nvcf/config';
import { formatPreflight, runPreflight, UsageError, parseCommand } from './index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const USAGE = 'usage: npm run preflight -- [--json] [--keyspace-suffix S] [--stream-replicas N] [--dir D]';

async function main(argv: string[], processEnv: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseCommand({
    args: argv,
    options: {
      json: { type: 'boolean', default: false },
      'keyspace-suffix': { type: 'string' },
      'stream-replicas': { type: 'string' },
      dir: { type: 'string' },
    },
  });
  const env = { ...readEnvFile(path.join(ROOT, '.services', 'env')), ...processEnv };
  const hint = 'set it, or run `npm run services:up` (writes .services/env)';
  if (!env.NATS_URL) throw new UsageError(`NATS_URL is not set: ${hint}`);
  if (!env.CASSANDRA_CONTACT_POINTS) throw new UsageError(`CASSANDRA_CONTACT_POINTS is not set: ${hint}`);
  const replicas = values['stream-replicas'];
  if (replicas !== undefined && !/^[1-5]$/.test(replicas))
    throw new UsageError(`--stream-replicas must be 1 to 5 (got '${replicas}')`);

  const result = await runPreflight({
    natsUrl: env.NATS_URL,
    contactPoints: env.CASSANDRA_CONTACT_POINTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    keyspaceSuffix: values['keyspace-suffix'],
    streamReplicas: replicas === undefined ? undefined : Number(replicas),
    migrationsDir: values.dir,
  });
  console.log(values.json ? JSON.stringify(result, null, 2) : formatPreflight(result));
  return result.ok ? 0 : 1;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    console.error(e instanceof UsageError ? `preflight: ${e.message}\n${USAGE}` : `preflight: ${e.name}: ${e.message}`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);

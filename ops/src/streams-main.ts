/**
 * npm run streams -- ensure [--stream-replicas N]
 * In the image: `node bin/nvcf.js streams ensure`, the Helm chart's pre-install/pre-upgrade hook.
 *
 * NATS_URL and NATS_STREAM_REPLICAS (the flag wins) from the environment, else from .services/env.
 * Creates or updates every stream of this release. Exit codes: 0 done, 1 failed, 2 usage.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readEnvFile } from '@nvcf/config';
import { UsageError } from './cli.js';
import { ensureReleaseStreams } from './streams.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const USAGE = 'usage: streams ensure [--stream-replicas N]';

async function main(argv: string[], processEnv: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ args: argv, allowPositionals: true, options: { 'stream-replicas': { type: 'string' } } });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  })();
  if (positionals.length !== 1 || positionals[0] !== 'ensure')
    throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  const env = { ...readEnvFile(path.join(ROOT, '.services', 'env')), ...processEnv };
  if (!env.NATS_URL)
    throw new UsageError('NATS_URL is not set: set it, or run `npm run services:up` (writes .services/env)');
  const replicas = values['stream-replicas'] ?? env.NATS_STREAM_REPLICAS ?? '1';
  if (!/^[1-5]$/.test(replicas)) throw new UsageError(`the stream replicas must be 1 to 5 (got '${replicas}')`);
  const names = await ensureReleaseStreams({ natsUrl: env.NATS_URL, replicas: Number(replicas) });
  console.log(`streams ensured with ${replicas} replica(s): ${names.join(', ')}`);
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
    console.error(
      e instanceof UsageError ? `streams: ${e.message}\n${USAGE}` : `streams: ${e.name}: ${e.message}${cause}`,
    );
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);

/**
 * npm run streams -- ensure [--stream-replicas N]
 * npm run streams -- dead-letters list [--stream S] [--durable D] [--limit N] [-o json]
 * npm run streams -- dead-letters show <id> [-o json]
 * npm run streams -- dead-letters replay <id> [--data-file F|-]
 * npm run streams -- dead-letters purge [--stream S] --yes
 * In the image: `node bin/nvcf.js streams …`; `ensure` is the Helm chart's pre-install/pre-upgrade hook.
 *
 * NATS_URL and NATS_STREAM_REPLICAS (the flag wins) from the environment, else from .services/env.
 * Exit codes: 0 done, 1 failed, 2 usage.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEnvFile } from '@nvcf/config';
import { UsageError, parseCommand } from './cli.js';
import { deadLettersCommand } from './dead-letters.js';
import { ensureReleaseStreams } from './streams.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const USAGE = [
  'usage: streams ensure [--stream-replicas N]',
  '       streams dead-letters list [--stream S] [--durable D] [--limit N] [-o json]',
  '       streams dead-letters show <id> [-o json]',
  '       streams dead-letters replay <id> [--data-file FILE|-]',
  '       streams dead-letters purge [--stream S] --yes',
].join('\n');

async function main(argv: string[], processEnv: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommand({
    args: argv,
    allowPositionals: true,
    options: {
      'stream-replicas': { type: 'string' },
      stream: { type: 'string' },
      durable: { type: 'string' },
      limit: { type: 'string' },
      'data-file': { type: 'string' },
      output: { type: 'string', short: 'o' },
      yes: { type: 'boolean' },
    },
  });
  const env = { ...readEnvFile(path.join(ROOT, '.services', 'env')), ...processEnv };
  const [command, ...rest] = positionals;
  if (command !== 'ensure' && command !== 'dead-letters')
    throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  if (!env.NATS_URL)
    throw new UsageError('NATS_URL is not set: set it, or run `npm run services:up` (writes .services/env)');
  if (command === 'dead-letters') {
    const [action = '', ...args] = rest;
    if (values.output !== undefined && values.output !== 'json')
      throw new UsageError(`-o takes json (got '${values.output}')`);
    if (values.limit !== undefined && !/^[1-9]\d*$/.test(values.limit))
      throw new UsageError(`--limit must be a positive integer (got '${values.limit}')`);
    console.log(
      await deadLettersCommand({
        natsUrl: env.NATS_URL,
        action,
        args,
        stream: values.stream,
        durable: values.durable,
        limit: values.limit === undefined ? undefined : Number(values.limit),
        dataFile: values['data-file'],
        json: values.output === 'json',
        yes: values.yes,
      }),
    );
    return 0;
  }
  if (rest.length) throw new UsageError(`unknown command '${positionals.join(' ')}'`);
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

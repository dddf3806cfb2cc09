/**
 * CLI: `tsx test/services/cli.ts up [nats|cassandra|all]` / `down [--purge]` / `env`.
 * Progress goes to stderr; `up` and `env` print the KEY=VALUE env to stdout.
 */
import { readServicesEnv, servicesDown, servicesUp } from './index.js';

const USAGE = 'usage: cli.ts up [nats|cassandra|all] | down [--purge] | env';

function printEnv(env: Record<string, string>): void {
  for (const k of Object.keys(env).sort()) process.stdout.write(`${k}=${env[k]}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, arg] = argv;
  switch (cmd) {
    case 'up': {
      const which = arg ?? 'all';
      if (!['nats', 'cassandra', 'all'].includes(which)) break;
      printEnv(await servicesUp({ nats: which !== 'cassandra', cassandra: which !== 'nats' }));
      return 0;
    }
    case 'down':
      if (arg !== undefined && arg !== '--purge') break;
      await servicesDown({ purge: arg === '--purge' });
      return 0;
    case 'env':
      printEnv(readServicesEnv());
      return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err as Error;
    process.stderr.write(`[services] ${e.name ?? 'Error'}: ${e.message ?? String(err)}\n`);
    if (e.cause) process.stderr.write(`[services] cause: ${String(e.cause)}\n`);
    process.exit(1);
  },
);

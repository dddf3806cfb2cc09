/**
 * CLI: `tsx --conditions=source test/services/cli.ts up [nats|cassandra|kubernetes|tracing|all]...` / `down [--purge]` / `env`.
 * `up` alone starts NATS and Cassandra; `up kubernetes` starts them and, additionally, etcd,
 * kube-apiserver and the cluster simulator; `up all` is the same; names combine (`up nats kubernetes`).
 * `up tracing` starts NATS and Cassandra and, additionally, Jaeger (traces of every service that
 * reads .services/env: its OTEL_EXPORTER_OTLP_ENDPOINT, and the UI at JAEGER_QUERY_URL).
 * `up cluster` starts a 3-node NATS cluster and a 3-node Cassandra ring instead (state in
 * .services/cluster/, env also in .services/env); `down` stops both sets, `down cluster` or
 * `down single` one of them.
 * Progress goes to stderr; `up` and `env` print the KEY=VALUE env to stdout.
 */
import { clusterServicesUp, readServicesEnv, servicesDown, servicesUp } from './index.js';

const USAGE =
  'usage: cli.ts up [nats|cassandra|kubernetes|tracing|all]... | up cluster | down [cluster|single] [--purge] | env';
const NAMES = ['nats', 'cassandra', 'kubernetes', 'tracing', 'all'];

function printEnv(env: Record<string, string>): void {
  for (const k of Object.keys(env).sort()) process.stdout.write(`${k}=${env[k]}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  switch (cmd) {
    case 'up': {
      const args = argv.slice(1);
      if (args.length === 1 && args[0] === 'cluster') {
        printEnv(await clusterServicesUp());
        return 0;
      }
      if (args.some((a) => !NAMES.includes(a))) break;
      // NATS and Cassandra unless named otherwise: the demo on Kubernetes needs all three
      const extras = ['kubernetes', 'tracing'];
      const both = args.length === 0 || args.every((a) => extras.includes(a)) || args.includes('all');
      const want = (name: string) => both || args.includes(name);
      printEnv(
        await servicesUp({
          nats: want('nats'),
          cassandra: want('cassandra'),
          kubernetes: args.includes('kubernetes') || args.includes('all'),
          tracing: args.includes('tracing'),
        }),
      );
      return 0;
    }
    case 'down': {
      const args = argv.slice(1);
      const which = args.filter((a) => a !== '--purge');
      if (which.length > 1 || (which[0] !== undefined && which[0] !== 'cluster' && which[0] !== 'single')) break;
      const cluster = which[0] === 'cluster' ? 'only' : which[0] === 'single' ? 'none' : 'also';
      await servicesDown({ purge: args.includes('--purge'), cluster });
      return 0;
    }
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
    if (e.cause)
      process.stderr.write(
        `[services] cause: ${e.cause instanceof Error ? e.cause.message : JSON.stringify(e.cause)}\n`,
      );
    process.exit(1);
  },
);

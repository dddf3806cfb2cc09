// Queries side by side: graphql-gateways-benchmark's TestQuery through each gateway.
// npx tsx --conditions=source bench/queries.ts [--seconds 20] [--warmup 5] [--connections 50] [--rounds 1] [--only ours,hive_rust_qp]
import { runQueries, skippedPeers } from './queries/run.js';
import { queriesSummary } from './results.js';
import { mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
import { gateways } from './queries/gateways.js';
import { arg, listOf, positiveInt } from './cli/args.js';

if (process.argv.includes('--help')) {
  console.log(
    [
      'npm run bench:queries -- [--seconds 20] [--warmup 5] [--connections 50] [--rounds 1] [--only KEY,KEY]',
      `  --only  gateways to run, of: ${gateways.map((g) => g.key).join(', ')}`,
      '  COSMO_ROUTER_BIN=<path>  the Cosmo router binary (the Go module proxy refuses its module)',
      '  BENCH_REBUILD=1          retry a native peer build that failed before',
      'Writes the queries section of bench/results/latest.json.',
    ].join('\n'),
  );
  process.exit(0);
}

const opts = {
  seconds: positiveInt('seconds', 20),
  // 0: no warm-up
  warmupSeconds: Number(arg('warmup') ?? 5),
  connections: positiveInt('connections', 50),
  rounds: positiveInt('rounds', 1),
};
const keys = gateways.map((g) => g.key);
const only = listOf('only', keys, keys);
const run = startRun();
const results = await runQueries({ ...opts, only });
console.table(results.map(({ label: _, ...r }) => r));
mergeSections({ queries: { run: run.finish(), ...queriesSummary(results, opts), skipped: skippedPeers } });

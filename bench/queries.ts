// Queries side by side: graphql-gateways-benchmark's TestQuery through each gateway.
// npx tsx --conditions=source bench/queries.ts [--seconds 20] [--connections 50] [--rounds 1] [--only ours,hive_rust_qp]
import { runQueries, skippedPeers } from './queries/run.js';
import { queriesSummary } from './results.js';
import { mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const opts = {
  seconds: Number(arg('seconds') ?? 20),
  warmupSeconds: Number(arg('warmup') ?? 5),
  connections: Number(arg('connections') ?? 50),
  rounds: Number(arg('rounds') ?? 1),
};
const run = startRun();
const results = await runQueries({ ...opts, only: arg('only')?.split(',') as any });
console.table(results.map(({ label: _, ...r }) => r));
mergeSections({ queries: { run: run.finish(), ...queriesSummary(results, opts), skipped: skippedPeers } });

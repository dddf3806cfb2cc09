// Subscriptions side by side: the gateway's own fan-out, Hive Gateway forwarding to nvca-status,
// and the raw WebSocket ceiling (bench/ceiling/server.ts). Needs npm run services:up.
// tsx --conditions=source bench/subscriptions.ts [--subs 1000] [--rate 20] [--seconds 15] [--paths gateway,forward,ceiling] [--remote] [--out bench/results/latest.json]
import { runSubscriptions, allPaths, type Path } from './subscriptions/run.js';
import { mergeLatest, subscriptionsSummary } from './results.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const num = (name: string, d: number) => {
  const v = Number(arg(name) ?? d);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} must be a positive integer (got '${arg(name)}')`);
  return v;
};
const SUBS = num('subs', 1000),
  RATE = num('rate', 20),
  SECONDS = num('seconds', 15);
const PATHS = (arg('paths') ?? allPaths.join(',')).split(',').map((p) => p.trim()) as Path[];
for (const p of PATHS) if (!allPaths.includes(p)) throw new Error(`--paths takes ${allPaths.join(', ')} (got '${p}')`);
const OUT = arg('out') ?? 'bench/results/latest.json';

const REMOTE = process.argv.includes('--remote');
const results = await runSubscriptions({ subs: SUBS, rate: RATE, seconds: SECONDS, paths: PATHS, remote: REMOTE });
console.table(results);

// one record per run: a path left out is null rather than a number measured under other settings
mergeLatest(
  { subscriptions: subscriptionsSummary([{ subs: SUBS, rate: RATE, seconds: SECONDS, remote: REMOTE, results }]) },
  OUT,
);
// the graphql-ws clients' sockets may still be closing
process.exit(0);

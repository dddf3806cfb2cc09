// npm run bench [-- --quick | --render]: queries, subscriptions and rollout side by side with the peers, in one
// run on this machine; writes bench/results/latest.json and bench/RESULTS.md.
// Starts NATS and Cassandra itself (npm run services:up) after the query part, which needs neither.
import { writeFileSync, readFileSync } from 'node:fs';
import { servicesUp } from '../test/services/index.js';
import { runQueries, type QueryOptions } from './queries/run.js';
import { runSubscriptions, allPaths, type Path } from './subscriptions/run.js';
import { runRollout, type ServicesEnv } from './rollout/run.js';
import {
  LATEST,
  machine,
  queriesSummary,
  subscriptionsSummary,
  rolloutSummary,
  type SubscriptionRun,
} from './results.js';
import { renderResults } from './report.js';

// --render: only rewrite RESULTS.md from latest.json (after editing ANALYSIS.md)
if (process.argv.includes('--render')) {
  const last = JSON.parse(readFileSync(LATEST, 'utf8'));
  if (last.subscriptions?.runs) last.subscriptions = subscriptionsSummary(last.subscriptions.runs);
  writeFileSync(LATEST, JSON.stringify(last, null, 2));
  writeFileSync('bench/RESULTS.md', renderResults(last));
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const plan = quick
  ? {
      queries: { seconds: 10, warmupSeconds: 3, connections: 50, rounds: 1 },
      subscriptions: [{ subs: 1000, rate: 20, seconds: 10 }],
      rollout: [100, 1000],
    }
  : {
      queries: { seconds: 20, warmupSeconds: 5, connections: 50, rounds: 3 },
      subscriptions: [
        { subs: 1000, rate: 5, seconds: 15 },
        { subs: 1000, rate: 20, seconds: 15 },
        { subs: 10_000, rate: 2, seconds: 15 },
        { subs: 1000, rate: 5, seconds: 15, remote: true, paths: ['gateway'] as Path[] },
      ],
      rollout: [100, 1000],
    };

const started = Date.now();
const out: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: machine(),
  mode: quick ? 'quick' : 'full',
  command: `npm run bench${quick ? ' -- --quick' : ''}`,
};
const failures: string[] = [];
async function phase(name: string, body: () => Promise<unknown>) {
  const t = Date.now();
  try {
    out[name] = await body();
  } catch (err) {
    failures.push(name);
    out[name] = { error: (err as Error).message };
    console.error(`bench: ${name} failed:`, err);
  }
  console.error(`bench: ${name} took ${Math.round((Date.now() - t) / 1000)} s`);
}

await phase('queries', async () => queriesSummary(await runQueries(plan.queries), plan.queries));
const env = (await servicesUp({ nats: true, cassandra: true })) as unknown as ServicesEnv;
await phase('subscriptions', async () => {
  const runs: SubscriptionRun[] = [];
  for (const s of plan.subscriptions as {
    subs: number;
    rate: number;
    seconds: number;
    remote?: boolean;
    paths?: Path[];
  }[]) {
    runs.push({ ...s, results: await runSubscriptions({ ...s, paths: s.paths ?? allPaths, natsUrl: env.NATS_URL }) });
  }
  return subscriptionsSummary(runs);
});
await phase('rollout', async () => rolloutSummary(await runRollout(plan.rollout, env)));
out.duration_s = Math.round((Date.now() - started) / 1000);

writeFileSync(LATEST, JSON.stringify(out, null, 2));
writeFileSync('bench/RESULTS.md', renderResults(out as any));
console.error(
  `bench: wrote ${LATEST} and bench/RESULTS.md in ${out.duration_s} s${failures.length ? `; FAILED: ${failures.join(', ')}` : ''}`,
);
process.exit(failures.length ? 1 : 0);

// npm run bench [-- --quick | --render]: queries, subscriptions and rollout side by side with the peers, in one
// run on this machine; writes bench/results/latest.json and bench/RESULTS.md.
// Starts NATS and Cassandra itself (npm run services:up) after the query part, which needs neither.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { servicesUp } from '@nvcf/test/services';
import { runQueries, skippedPeers } from './queries/run.js';
import { runSubscriptions, runSweep, allPaths, sweepPaths, type Path, type SweepSeries } from './subscriptions/run.js';
import { sweepSvg } from './subscriptions/plot.js';
import { ensureCosmoRouter } from './peers/native/build.js';
import { runRollout, type ServicesEnv } from './rollout/run.js';
import {
  LATEST,
  machine,
  queriesSummary,
  subscriptionsSummary,
  rolloutSummary,
  sweepSummary,
  type SubscriptionRun,
} from './results.js';
import { renderResults } from './report.js';

// --render: only rewrite RESULTS.md from latest.json (after editing ANALYSIS.md)
if (process.argv.includes('--render')) {
  const last = JSON.parse(readFileSync(LATEST, 'utf8'));
  // the sweep's fields are kept beside the fixed-rate summary
  if (last.subscriptions?.runs)
    last.subscriptions = { ...last.subscriptions, ...subscriptionsSummary(last.subscriptions.runs) };
  writeFileSync(LATEST, JSON.stringify(last, null, 2));
  writeFileSync('bench/RESULTS.md', renderResults(last));
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const plan = quick
  ? {
      queries: { seconds: 10, warmupSeconds: 3, connections: 50, rounds: 1 },
      subscriptions: [{ subs: 1000, rate: 20, seconds: 10 }],
      // a short sweep: the curve's shape and where it bends, not the full issue's steps
      sweep: { series: [{ subs: 1000, rates: [20, 50, 80] }] as SweepSeries[], seconds: 5 },
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
      // 20k to 140k deliveries/s asked for, each step 15 s, until p99 passes 100 ms or anything is lost
      sweep: {
        series: [
          { subs: 1000, rates: [20, 40, 60, 80, 100, 120, 140] },
          { subs: 10_000, rates: [2, 4, 6, 8, 10] },
        ] as SweepSeries[],
        seconds: 15,
      },
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

await phase('queries', async () => ({
  ...queriesSummary(await runQueries(plan.queries), plan.queries),
  // native peers that could not be built here, with why (the run goes on without them)
  skipped: skippedPeers,
}));
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
  const fixed = subscriptionsSummary(runs);
  const P99_BOUND_MS = 100;
  const cosmo = ensureCosmoRouter();
  const cosmoSkipped =
    'skipped' in cosmo ? cosmo.skipped : 'the Cosmo router built, but this benchmark does not configure its EDFS yet';
  try {
    const curves = await runSweep({
      ...plan.sweep,
      paths: sweepPaths,
      p99BoundMs: P99_BOUND_MS,
      natsUrl: env.NATS_URL,
    });
    writeFileSync('bench/results/subscriptions-sweep.svg', sweepSvg(curves, P99_BOUND_MS));
    const sweep = sweepSummary(curves, {
      seconds: plan.sweep.seconds,
      p99BoundMs: P99_BOUND_MS,
      svg: 'results/subscriptions-sweep.svg',
      cosmoSkipped,
    });
    return { ...fixed, ...sweep };
  } catch (err) {
    // the fixed-rate runs stand on their own: a failed sweep is reported beside them
    console.error('bench: subscription sweep failed:', err);
    return { ...fixed, sweep: { error: (err as Error).message } };
  }
});
await phase('rollout', async () => rolloutSummary(await runRollout(plan.rollout, env)));
out.duration_s = Math.round((Date.now() - started) / 1000);

// the fleet is measured on its own (npm run bench:fleet): its part of the last file stays
const previous = existsSync(LATEST) ? (JSON.parse(readFileSync(LATEST, 'utf8')) as Record<string, unknown>) : {};
if (previous.fleet && !out.fleet) out.fleet = previous.fleet;
writeFileSync(LATEST, JSON.stringify(out, null, 2));
writeFileSync('bench/RESULTS.md', renderResults(out as any));
console.error(
  `bench: wrote ${LATEST} and bench/RESULTS.md in ${String(out.duration_s)} s${failures.length ? `; FAILED: ${failures.join(', ')}` : ''}`,
);
process.exit(failures.length ? 1 : 0);

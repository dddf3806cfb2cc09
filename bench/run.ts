// npm run bench [-- --quick | --render | --only SECTION,…]: queries, subscriptions and rollout side by side with the
// peers, in one run on this machine; writes its sections of bench/results/latest.json (each with its run) and
// bench/RESULTS.md. --only: those sections alone (queries, subscriptions, sweep, rollout), as the full run has them;
// the others keep their runs.
// Starts NATS and Cassandra itself (npm run services:up) after the query part, which needs neither.
import { writeFileSync } from 'node:fs';
import { servicesUp } from '@nvcf/test/services';
import { runQueries, skippedPeers } from './queries/run.js';
import { runSubscriptions, runSweep, allPaths, sweepPaths, type Path, type SweepSeries } from './subscriptions/run.js';
import { sweepSvg } from './subscriptions/plot.js';
import { MIX_SERIES, QUICK_MIX_SERIES, QUICK_SWEEP_SERIES, SWEEP_SERIES, parseSeries } from './subscriptions/series.js';
import { plotSeries, sweepSection } from './subscriptions/sweep-results.js';
import { withCosmoEdfs } from './subscriptions/cosmo-edfs.js';
import { runRollout, type ServicesEnv } from './rollout/run.js';
import { queriesSummary, subscriptionsSummary, rolloutSummary, type SubscriptionRun } from './results.js';
import { LATEST, mergeSections, readLatest, type Latest, type SectionName } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
import { renderResults } from './report.js';
import { listOf } from './cli/args.js';

// --render: only rewrite RESULTS.md from latest.json (after editing ANALYSIS.md); every section keeps its run
if (process.argv.includes('--render')) {
  const last = readLatest();
  const subs = last.subscriptions;
  if (Array.isArray(subs?.runs))
    last.subscriptions = { ...subs, ...subscriptionsSummary(subs.runs as SubscriptionRun[]), run: subs.run };
  writeFileSync('bench/RESULTS.md', renderResults(mergeSections(last)));
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const PHASES: SectionName[] = ['queries', 'subscriptions', 'sweep', 'rollout'];
const only = listOf('only', PHASES, PHASES);
const plan = quick
  ? {
      queries: { seconds: 10, warmupSeconds: 3, connections: 50, rounds: 1 },
      subscriptions: [{ subs: 1000, rate: 20, seconds: 10 }],
      subscriptionRepeats: 1,
      // a short sweep: the curve's shape and where it bends, not the full issue's steps
      sweep: { series: parseSeries(QUICK_SWEEP_SERIES), seconds: 5, repeats: 3 },
      mix: parseSeries(QUICK_MIX_SERIES),
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
      // every path of a configuration three times, interleaved: ours, peer, ceiling, ours, …
      subscriptionRepeats: 3,
      // from 20k deliveries/s asked for, each step 15 s, until p99 passes 100 ms or anything is lost
      sweep: {
        series: parseSeries(SWEEP_SERIES),
        seconds: 15,
        // each step three times, interleaved: ours, ceiling, ours, …
        repeats: 3,
      },
      // the realistic mix (bench/subscriptions/mix/): each subscriber receives its tenant's events only
      mix: parseSeries(MIX_SERIES),
      rollout: [100, 1000],
    };

const started = Date.now();
const out: Latest = {};
const failures: string[] = [];
// each section's run starts with its phase: its own start, duration and load average
async function phase(name: SectionName, body: () => Promise<Record<string, unknown>>) {
  if (!only.includes(name)) return;
  const run = startRun();
  try {
    const result = await body();
    out[name] = { run: run.finish(), ...result };
  } catch (err) {
    failures.push(name);
    out[name] = { run: run.finish(), error: (err as Error).message };
    console.error(`bench: ${name} failed:`, err);
  }
  console.error(`bench: ${name} took ${String(out[name]?.run.duration_s)} s`);
}

await phase('queries', async () => ({
  ...queriesSummary(await runQueries(plan.queries), plan.queries),
  // native peers that could not be built here, with why (the run goes on without them)
  skipped: skippedPeers,
}));
// NATS and Cassandra, started by the first section that needs them (the queries need neither)
let servicesStarted: Promise<ServicesEnv> | undefined;
const services = () =>
  (servicesStarted ??= servicesUp({ nats: true, cassandra: true }).then((e) => e as unknown as ServicesEnv));
await phase('subscriptions', async () => {
  const env = await services();
  const runs: SubscriptionRun[] = [];
  for (const s of plan.subscriptions as {
    subs: number;
    rate: number;
    seconds: number;
    remote?: boolean;
    paths?: Path[];
  }[]) {
    const results = await runSubscriptions({
      ...s,
      paths: s.paths ?? allPaths,
      repeats: plan.subscriptionRepeats,
      natsUrl: env.NATS_URL,
    });
    runs.push({ ...s, results });
  }
  return subscriptionsSummary(runs);
});
// the sweep is a section of its own: the fixed-rate runs above stand without it
await phase('sweep', async () => {
  const env = await services();
  const P99_BOUND_MS = 100;
  // the Cosmo router's EDFS over the same subjects, when its binary is here (COSMO_ROUTER_BIN or a build)
  const { paths, skipped: cosmoSkipped } = withCosmoEdfs(sweepPaths);
  const cassandra = {
    contactPoints: env.CASSANDRA_CONTACT_POINTS.split(','),
    localDataCenter: env.CASSANDRA_LOCAL_DC || 'datacenter1',
  };
  const sweep = (paths: Path[], series: SweepSeries[]) =>
    runSweep({ ...plan.sweep, series, paths, p99BoundMs: P99_BOUND_MS, natsUrl: env.NATS_URL, cassandra });
  // the mix runs alone (its subgraphs store every event of the stream), before the best case and the ceiling
  const curves = [...(await sweep(['mix'], plan.mix)), ...(await sweep(paths, plan.sweep.series))];
  const section = sweepSection(curves, {
    seconds: plan.sweep.seconds,
    p99BoundMs: P99_BOUND_MS,
    repeats: plan.sweep.repeats,
    plot: 'results/subscriptions-sweep.svg',
    cosmoSkipped,
  });
  writeFileSync('bench/results/subscriptions-sweep.svg', sweepSvg(plotSeries(section), P99_BOUND_MS));
  return section;
});
await phase('rollout', async () => rolloutSummary(await runRollout(plan.rollout, await services())));

// the fleet and the hardening run are measured on their own (npm run bench:fleet, bench:hardening): their sections stay
writeFileSync('bench/RESULTS.md', renderResults(mergeSections(out)));
console.error(
  `bench: wrote ${LATEST} and bench/RESULTS.md in ${Math.round((Date.now() - started) / 1000)} s${failures.length ? `; FAILED: ${failures.join(', ')}` : ''}`,
);
process.exit(failures.length ? 1 : 0);

// Subscriptions side by side: the gateway's own fan-out, Hive Gateway forwarding to nvca-status,
// and the fair ceiling (bench/ceiling/). Needs npm run services:up.
// tsx --conditions=source bench/subscriptions.ts [--subs 1000] [--rate 20] [--seconds 15] [--paths gateway,forward,fair_ceiling] [--remote] [--repeats 3] [--out bench/results/latest.json]
// tsx --conditions=source bench/subscriptions.ts --sweep [--series 1000:20,40,…/10000:2,4,… (bench/subscriptions/series.ts)] [--seconds 15] [--repeats 3] [--paths service,fair_ceiling] [--p99 100] [--out FILE]
// --sweep --mix adds the realistic mix (bench/subscriptions/mix/; its own steps, MIX_SERIES in bench/subscriptions/series.ts, or --series),
// run alone before the others: CASSANDRA_CONTACT_POINTS and CASSANDRA_LOCAL_DC of the environment, else .services/env's.
// With --out other than latest.json, the sweep's SVG goes beside FILE (FILE without .json, then -sweep.svg).
import { writeFileSync } from 'node:fs';
import { runSubscriptions, runSweep, allPaths, sweepPaths, type Path } from './subscriptions/run.js';
import { LATEST, mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
import { subscriptionsSummary } from './results.js';
import { sweepSvg } from './subscriptions/plot.js';
import { mergeSweep, plotSeries, sweepSection } from './subscriptions/sweep-results.js';
import { withCosmoEdfs } from './subscriptions/cosmo-edfs.js';
import { arg, positiveInt } from './cli/args.js';
import { MIX_SERIES, SWEEP_SERIES, parseSeries } from './subscriptions/series.js';

const SWEEP = process.argv.includes('--sweep');
const MIX = process.argv.includes('--mix');
const SUBS = positiveInt('subs', 1000),
  RATE = positiveInt('rate', 20),
  SECONDS = positiveInt('seconds', 15);
const PATHS = (arg('paths') ?? (SWEEP ? sweepPaths : allPaths).join(',')).split(',').map((p) => p.trim()) as Path[];
for (const p of PATHS)
  if (!allPaths.includes(p) && p !== 'mix' && p !== 'cosmo_edfs')
    throw new Error(`--paths takes ${allPaths.join(', ')}, mix, cosmo_edfs (got '${p}')`);
if (MIX && !SWEEP) throw new Error('--mix is a series of the sweep: use it with --sweep');
if (MIX && !PATHS.includes('mix')) PATHS.unshift('mix');
const OUT = arg('out') ?? LATEST;
const run = startRun();
// NATS of the environment when set (a checkout without its own services), else .services/env's
const NATS_URL = process.env.NATS_URL || undefined;
const CASSANDRA = process.env.CASSANDRA_CONTACT_POINTS
  ? {
      contactPoints: process.env.CASSANDRA_CONTACT_POINTS.split(','),
      localDataCenter: process.env.CASSANDRA_LOCAL_DC || 'datacenter1',
    }
  : undefined;

if (SWEEP) {
  const p99BoundMs = positiveInt('p99', 100);
  // the Cosmo router's EDFS over the same subjects joins the default paths when its binary is here
  const { paths: sweepWith, skipped: cosmoSkipped } = arg('paths')
    ? { paths: PATHS, skipped: null }
    : withCosmoEdfs(PATHS);
  if (cosmoSkipped) console.error(`[bench] sweep: Cosmo EDFS skipped: ${cosmoSkipped}`);
  const repeats = positiveInt('repeats', 3);
  const sweep = (paths: Path[], series: string) =>
    runSweep({
      series: parseSeries(arg('series') ?? series),
      seconds: SECONDS,
      paths,
      p99BoundMs,
      repeats,
      natsUrl: NATS_URL,
      cassandra: CASSANDRA,
    });
  // the mix has its own default steps: each of its subscribers receives only its tenant's events
  const curves = [
    ...(PATHS.includes('mix') ? await sweep(['mix'], MIX_SERIES) : []),
    ...(sweepWith.some((p) => p !== 'mix')
      ? await sweep(
          sweepWith.filter((p) => p !== 'mix'),
          SWEEP_SERIES,
        )
      : []),
  ];
  // the report links the plot relative to bench/; a run written elsewhere keeps its plot beside it
  const beside = `${OUT.replace(/\.json$/, '')}-sweep.svg`;
  const [svg, plot] =
    OUT === LATEST ? ['bench/results/subscriptions-sweep.svg', 'results/subscriptions-sweep.svg'] : [beside, beside];
  const section = sweepSection(curves, { seconds: SECONDS, p99BoundMs, repeats, plot, cosmoSkipped });
  writeFileSync(svg, sweepSvg(plotSeries(section), p99BoundMs));
  console.table(
    curves.flatMap((c) =>
      c.steps.map((x) => ({
        path: c.path,
        subscribers: c.subs,
        rate: x.rate,
        offered_per_s: x.offered_per_s,
        delivered_per_s: `${x.median.delivered_per_s} (${x.min.delivered_per_s}–${x.max.delivered_per_s})`,
        p50_ms: x.median.p50_ms,
        p99_ms: `${x.median.p99_ms} (${x.min.p99_ms}–${x.max.p99_ms})`,
        lost: x.lost,
        duplicates: x.duplicates,
        incomplete: x.incomplete ?? '',
        rss_mb: x.median.rss_mb,
        sustained: x.sustained,
      })),
    ),
  );
  console.error(
    `[bench] max sustained: ours, best case ${section.best_case?.max_sustained_events_per_s ?? '–'}/s, realistic mix ${section.mix?.max_sustained_events_per_s ?? '–'}/s, fair ceiling ${section.fair_ceiling?.max_sustained_events_per_s ?? '–'}/s; plot ${svg}; written to ${OUT}`,
  );
  mergeSweep({ run: run.finish(), ...section }, OUT);
} else {
  const REMOTE = process.argv.includes('--remote');
  const results = await runSubscriptions({
    subs: SUBS,
    rate: RATE,
    seconds: SECONDS,
    paths: PATHS,
    remote: REMOTE,
    repeats: positiveInt('repeats', 1),
    natsUrl: NATS_URL,
  });
  console.table(results);
  // one record per run: a path left out is null rather than a number measured under other settings;
  // the sweep is a section of its own, from its own command, and stays
  mergeSections(
    {
      subscriptions: {
        run: run.finish(),
        ...subscriptionsSummary([{ subs: SUBS, rate: RATE, seconds: SECONDS, remote: REMOTE, results }]),
      },
    },
    OUT,
  );
}
// the graphql-ws clients' sockets may still be closing
process.exit(0);

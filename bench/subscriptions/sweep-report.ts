// RESULTS.md's saturation sweep, rendered from latest.json's `sweep` section.
import type { SweepSection, SweepSeriesResult } from './sweep-results.js';
import type { Figure, StepSummary } from './steps.js';
import type { SweepStep } from './run.js';
import type { Run } from '../provenance/run.js';
import { runLine } from '../provenance/render.js';

const n = (x: number | null | undefined, digits = 0) =>
  x == null || Number.isNaN(x) ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits }).replace(/,/g, ' ');
const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
/** the median, then the spread of the repeats */
const spread = (s: StepSummary, k: Figure, unit = '') => `${n(s.median[k])}${unit} (${n(s.min[k])}–${n(s.max[k])})`;

/** the realistic mix's own counts, over the step's repeats */
const sum = (x: SweepStep, k: 'resumes' | 'replayed') => x.repeats.reduce((t, r) => t + (r[k] ?? 0), 0);

function series(s: SweepSeriesResult): string[] {
  // the mix counts deliveries without their remote fields, and its resumes
  const mix = s.curves.some((c) => c.steps.some((x) => x.incomplete !== undefined));
  return s.curves.flatMap((c) => [
    `**${s.label}**, ${n(c.subscribers)} subscribers${c.stopped ? ` (stopped: ${c.stopped})` : ''}`,
    '',
    table(
      [
        'events/s',
        'offered/s',
        'delivered/s',
        'p50 ms',
        'p99 ms',
        'lost',
        'duplicates',
        ...(mix ? ['remote fields missing', 'resumes (events replayed)'] : []),
        'RSS MB',
        'sustained',
      ],
      c.steps.map((x) => [
        x.rate,
        n(x.offered_per_s),
        spread(x, 'delivered_per_s'),
        spread(x, 'p50_ms'),
        spread(x, 'p99_ms'),
        n(x.lost),
        n(x.duplicates),
        ...(mix ? [n(x.incomplete), `${n(sum(x, 'resumes'))} (${n(sum(x, 'replayed'))})`] : []),
        spread(x, 'rss_mb'),
        x.sustained ? 'yes' : `**no** (${x.reason})`,
      ]),
    ),
    '',
  ]);
}

/** What the realistic mix exercises, where its series is shown (bench/subscriptions/mix/). */
const MIX = [
  'The realistic mix runs through what the chart deploys: two gateway replicas (one per core) behind one ready-aware',
  'balancer standing in for the Kubernetes Service, and nvcf, icms and nvca-status each in its own process on NATS and',
  'Cassandra. Its subscribers are spread over fifty tenants (rate limits at their defaults, subscription opens paced under',
  'them), each tenant publishing its own events at the step rate to its own functions; five distinct selections, one',
  "third of the subscribers selecting remote fields (the cluster's name and regions from icms; in runs before commit",
  '2779c8a also the stored state from nvca-status), so each',
  "event costs entity fetches, and a delivery without them counts as a failure; one tenant's subscribers drop their",
  'subscription at a random moment of each step and resume from their last cursor, their events still counted exactly once.',
  'Offered is subscribers × the rate each receives.',
].join('\n');

type Stored = { run?: Run } & ((SweepSection & { error?: undefined }) | { error: string });

export function renderSweep(stored: Stored | undefined): string {
  if (!stored) return 'Not run.';
  const ran = runLine(stored.run);
  if (stored.error !== undefined) return `${ran}\n\nFailed: ${stored.error}`;
  // a sweep recorded before the fair ceiling (against an unbatched fan-out): its curves stay in latest.json
  if (!('best_case' in stored) && !('fair_ceiling' in stored))
    return `${ran}\n\nNot run since the fair ceiling replaced the unbatched fan-out; the sweep of this run compared ours with the unbatched fan-out, which batches less than ours and so is no upper bound (its curves stay in \`results/latest.json\`).`;
  const w = stored;
  const cosmo = 'curves' in w.cosmo_edfs ? w.cosmo_edfs : undefined;
  const all = [w.best_case, w.mix, w.fair_ceiling, cosmo, w.npm_start, w.forward].filter(
    (s): s is SweepSeriesResult => !!s,
  );
  return [
    ran,
    '',
    `The offered rate rises step by step (${w.seconds_per_step} s each) on the same subscriptions; each step runs ${w.repeats} times,`,
    'interleaved across the paths (ours, ceiling, ours, …), and every figure is the median with the spread of the repeats',
    `(min–max). Sustained: ${w.sustained_when}; a path stops at its first step not sustained. Loss and duplicates are`,
    "counted per subscriber and event. The fair ceiling fans the same NATS events out with ours' batching (payload bytes built",
    'once per event, one socket write per connection per turn) and the same bytes per message, with no GraphQL, authentication',
    `or cursor signing. Plot: [subscriptions-sweep.svg](${w.plot}).`,
    '',
    w.mix
      ? MIX
      : 'Realistic mix: not run in this sweep (`npm run bench:subscriptions -- --sweep --mix`); the series below are the identical-subscription best case.',
    '',
    ...all.flatMap(series),
    `Highest sustained: ours, best case **${n(w.best_case?.max_sustained_events_per_s)}** deliveries/s${w.mix ? `, realistic mix **${n(w.mix.max_sustained_events_per_s)}**/s${w.ratio_mix_vs_fair_ceiling != null ? ` (${w.ratio_mix_vs_fair_ceiling.toFixed(2)} × the fair ceiling)` : ''}` : ''}, fair ceiling **${n(w.fair_ceiling?.max_sustained_events_per_s)}**/s` +
      (w.ratio_best_case_vs_fair_ceiling != null
        ? ` (ours ÷ fair ceiling ${w.ratio_best_case_vs_fair_ceiling.toFixed(2)}${w.ratio_best_case_vs_fair_ceiling > 1 ? ': above 1, so the ceiling is wrong' : ''})`
        : '') +
      (w.fair_ceiling_reached === false
        ? '; the fair ceiling sustained the highest step offered, so its maximum lies above this sweep and each ratio to it is only an upper bound'
        : '') +
      (w.npm_start ? `; inside npm start ${n(w.npm_start.max_sustained_events_per_s)}/s` : '') +
      '.',
    cosmo
      ? `Cosmo router, EDFS over NATS: ${cosmo.max_sustained_events_per_s != null ? `**${n(cosmo.max_sustained_events_per_s)}**/s` : 'no step sustained'}${w.ratio_best_case_vs_cosmo_edfs != null ? ` (ours, best case ÷ Cosmo ${w.ratio_best_case_vs_cosmo_edfs.toFixed(2)})` : ''}; its subscriptions select only what the NATS message carries (no subgraph fetch), and it neither authenticates, scopes by tenant (the subject is fixed in its schema) nor signs cursors. Without a stream configuration EDFS reads core NATS, where a message that arrives while the router is still handing out the previous one is dropped (counted as lost).`
      : `Cosmo EDFS over NATS: not run — ${w.cosmo_edfs.skipped ?? 'no reason recorded'}.`,
  ].join('\n');
}

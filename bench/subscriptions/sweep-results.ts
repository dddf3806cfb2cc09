// The saturation sweep's section of latest.json (`sweep`): each path's curves as a named series,
// every step with its repeats, their median and spread, and the highest rate sustained.
import { LATEST, mergeSections } from '../provenance/latest.js';
import type { Run } from '../provenance/run.js';
import { maxSustained, type SweepCurve, type SweepStep } from './run.js';
import type { Path } from './targets.js';
import { DELIVERED_SHARE } from './steps.js';
import type { PlotSeries } from './plot.js';

export interface SweepSeriesResult {
  path: Path;
  label: string;
  max_sustained_events_per_s: number | null;
  curves: { subscribers: number; stopped: string | null; steps: SweepStep[] }[];
}

export type SweepSection = {
  seconds_per_step: number;
  p99_bound_ms: number;
  repeats: number;
  sustained_when: string;
  plot: string;
  /** ours as deployed (the gateway service), identical subscriptions: the best case */
  best_case: SweepSeriesResult | null;
  /**
   * ours as deployed under a realistic mix (bench/subscriptions/mix/): two gateway replicas behind
   * one Service, real subgraphs, many tenants and selections, remote fields, resumes, rate limits on
   */
  mix?: SweepSeriesResult;
  fair_ceiling: SweepSeriesResult | null;
  /**
   * whether the fair ceiling's highest sustained step was followed by one it did not sustain: when
   * it sustained the last step offered, its maximum lies above the sweep and every ratio to it is
   * only an upper bound
   */
  fair_ceiling_reached: boolean;
  /** ours ÷ the fair ceiling, each at its highest sustained rate; above 1, the ceiling is not one */
  ratio_best_case_vs_fair_ceiling: number | null;
  ratio_mix_vs_fair_ceiling?: number | null;
  npm_start?: SweepSeriesResult;
  forward?: SweepSeriesResult;
  /** the Cosmo router's EDFS over the same subjects (./cosmo-edfs.ts): its series, or why it did not run */
  cosmo_edfs: (SweepSeriesResult & { skipped: null }) | { max_sustained_events_per_s: null; skipped: string | null };
  ratio_best_case_vs_cosmo_edfs?: number | null;
};

/** latest.json's key and the series' name for each path */
const SERIES: Record<
  Path,
  { key: 'best_case' | 'mix' | 'fair_ceiling' | 'npm_start' | 'forward' | 'cosmo_edfs'; label: string }
> = {
  service: { key: 'best_case', label: 'ours, best case (gateway service, identical subscriptions)' },
  mix: { key: 'mix', label: 'ours, realistic mix' },
  fair_ceiling: { key: 'fair_ceiling', label: "fair ceiling (ours' batching, no GraphQL)" },
  gateway: { key: 'npm_start', label: 'ours inside npm start' },
  forward: { key: 'forward', label: 'Hive Gateway forwarding' },
  cosmo_edfs: { key: 'cosmo_edfs', label: 'Cosmo router, EDFS over NATS' },
};

export function sweepSection(
  curves: SweepCurve[],
  o: { seconds: number; p99BoundMs: number; repeats: number; plot: string; cosmoSkipped: string | null },
): SweepSection {
  const of = (path: Path): SweepSeriesResult | null => {
    const mine = curves.filter((c) => c.path === path);
    if (!mine.length) return null;
    return {
      path,
      label: SERIES[path].label,
      max_sustained_events_per_s: maxSustained(curves, path),
      curves: mine.map((c) => ({ subscribers: c.subs, stopped: c.stopped ?? null, steps: c.steps })),
    };
  };
  const best = of('service'),
    ceiling = of('fair_ceiling'),
    npmStart = of('gateway'),
    forward = of('forward'),
    mix = of('mix'),
    cosmo = of('cosmo_edfs');
  const ours = best?.max_sustained_events_per_s,
    top = ceiling?.max_sustained_events_per_s;
  const ratioOf = (x: number | null | undefined, y: number | null | undefined) =>
    x && y ? Math.round((x / y) * 100) / 100 : null;
  const ratio = (x: number | null | undefined) => ratioOf(x, top);
  return {
    seconds_per_step: o.seconds,
    p99_bound_ms: o.p99BoundMs,
    repeats: o.repeats,
    sustained_when: `median delivered ≥ ${DELIVERED_SHARE} × offered, median p99 ≤ ${o.p99BoundMs} ms, and in every repeat 0 lost and 0 duplicates (per subscriber), every remote field delivered and every subscription live`,
    plot: o.plot,
    best_case: best,
    ...(mix ? { mix } : {}),
    fair_ceiling: ceiling,
    fair_ceiling_reached: reached(ceiling),
    ratio_best_case_vs_fair_ceiling: ratio(ours),
    ...(mix ? { ratio_mix_vs_fair_ceiling: ratio(mix.max_sustained_events_per_s) } : {}),
    ...(npmStart ? { npm_start: npmStart } : {}),
    ...(forward ? { forward } : {}),
    cosmo_edfs: cosmo
      ? { ...cosmo, skipped: null }
      : { max_sustained_events_per_s: null, skipped: o.cosmoSkipped ?? 'not among the paths of this sweep' },
    ...(cosmo ? { ratio_best_case_vs_cosmo_edfs: ratioOf(ours, cosmo.max_sustained_events_per_s) } : {}),
  };
}

/**
 * Whether a series' highest sustained step was followed by one it did not sustain (a series stops
 * at its first such step). Nothing sustained counts as reached once a step was run and failed.
 */
function reached(series: SweepSeriesResult | null): boolean {
  if (!series) return false;
  const top = series.max_sustained_events_per_s;
  return series.curves.some(
    (c) =>
      c.steps.some((s) => !s.sustained) &&
      (top === null || c.steps.some((s) => s.sustained && s.offered_per_s === top)),
  );
}

const isSeries = (v: unknown): v is SweepSeriesResult =>
  typeof v === 'object' && v !== null && 'curves' in v && 'label' in v && Array.isArray(v.curves);

/** Every named series in the section (any added later too), one plot line per subscriber count. */
export function plotSeries(section: object): PlotSeries[] {
  return Object.values(section)
    .filter(isSeries)
    .flatMap((s) =>
      s.curves.map((c) => ({
        name: s.label,
        subscribers: c.subscribers,
        stopped: c.stopped,
        points: c.steps,
      })),
    );
}

/** Writes the section, with its run, as latest.json's `sweep`. */
export function mergeSweep(section: SweepSection & { run: Run }, file = LATEST) {
  mergeSections({ sweep: section }, file);
}

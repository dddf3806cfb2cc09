import { median, percentile } from '../lib.js';
// A sweep step from its repeats: the median and the spread (min, max) of each figure, and whether
// the step was sustained.

/** One repeat of a step on one path, as latest.json keeps it. */
export interface Repeat {
  offered_per_s: number;
  delivered_per_s: number;
  p50_ms: number;
  p99_ms: number;
  lost: number;
  duplicates: number;
  rss_mb: number;
  /** subscriptions that were not live through the repeat (failed, or never ready) */
  not_ready: number;
  /** the realistic mix: deliveries without the remote fields their selection names */
  incomplete?: number;
  /** the realistic mix: subscriptions dropped and resumed from their cursor, and the events the replays brought */
  resumes?: number;
  replayed?: number;
}

/**
 * A session's measured figures once its step ended: the delivered rate over no less than the step (a
 * path that keeps up delivers the offered rate, not more), latency percentiles and memory.
 */
export function sessionFigures(o: {
  delivered: number;
  t0: number;
  lastAt: number;
  seconds: number;
  latencies: number[];
  rss: number;
  rssBase: number;
  subs: number;
}) {
  return {
    events_per_s: o.delivered ? Math.round(o.delivered / (Math.max(o.lastAt - o.t0, o.seconds * 1000) / 1000)) : 0,
    p50_ms: percentile(o.latencies, 50),
    p99_ms: percentile(o.latencies, 99),
    rss_mb: Math.round(o.rss),
    rss_per_1k_subs_mb: Math.round(((o.rss - o.rssBase) / o.subs) * 1000 * 10) / 10,
  };
}

export type Figure = 'delivered_per_s' | 'p50_ms' | 'p99_ms' | 'rss_mb';
const FIGURES: Figure[] = ['delivered_per_s', 'p50_ms', 'p99_ms', 'rss_mb'];
export type Figures = Record<Figure, number>;

export interface StepSummary {
  offered_per_s: number;
  median: Figures;
  min: Figures;
  max: Figures;
  /** over every repeat */
  lost: number;
  duplicates: number;
  /** over every repeat, where the repeats count them (the realistic mix) */
  incomplete?: number;
  sustained: boolean;
  /** why not, when not */
  reason: string | null;
}

/** delivered must reach this share of what was offered */
export const DELIVERED_SHARE = 0.99;

/**
 * Sustained: the median repeat delivered at least 99 % of the offered rate with its p99 within
 * the bound, and no repeat lost anything, delivered anything twice, delivered an event without
 * the remote fields it selected, or had a subscription drop out. A loss is a correctness
 * failure, so one lossy repeat is not outvoted by two clean ones; the rates and latencies are
 * noisy on a shared machine, so they are judged on the median.
 */
export function summarizeStep(offered: number, repeats: Repeat[], p99BoundMs: number): StepSummary {
  const pick = (f: (xs: number[]) => number) =>
    Object.fromEntries(FIGURES.map((k) => [k, f(repeats.map((r) => r[k]))])) as Figures;
  const med = pick(median),
    min = pick((xs) => Math.min(...xs)),
    max = pick((xs) => Math.max(...xs));
  const lost = repeats.reduce((s, r) => s + r.lost, 0),
    duplicates = repeats.reduce((s, r) => s + r.duplicates, 0),
    notReady = repeats.reduce((s, r) => s + r.not_ready, 0),
    incomplete = repeats.reduce((s, r) => s + (r.incomplete ?? 0), 0);
  const reason = !repeats.length
    ? 'not run'
    : lost
      ? `${lost} lost`
      : duplicates
        ? `${duplicates} duplicates`
        : incomplete
          ? `${incomplete} deliveries without their remote fields`
          : notReady
            ? `${notReady} subscriptions not live`
            : !(med.delivered_per_s >= DELIVERED_SHARE * offered)
              ? `delivered ${Math.round(med.delivered_per_s)}/s < ${DELIVERED_SHARE} × ${offered}/s`
              : !(med.p99_ms <= p99BoundMs)
                ? `p99 ${med.p99_ms} ms`
                : null;
  const counted = repeats.some((r) => r.incomplete !== undefined) ? { incomplete } : {};
  return {
    offered_per_s: offered,
    median: med,
    min,
    max,
    lost,
    duplicates,
    ...counted,
    sustained: reason === null,
    reason,
  };
}

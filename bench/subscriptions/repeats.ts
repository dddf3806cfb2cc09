// One path's fixed-rate result out of several runs of the same configuration: one run of a path on a
// shared 2-core machine is one draw from a wide spread (the peer's collapse most of all).
import { medianAndSpread, type Spread } from '../repeats.js';
import type { Result } from './run.js';

/** The figures a result reports as the median of its runs, with their lowest and highest. */
export const SPREAD_KEYS = ['events_per_s', 'p50_ms', 'p99_ms', 'rss_mb', 'rss_per_1k_subs_mb'] as const;
export type SpreadKey = (typeof SPREAD_KEYS)[number];

export interface Repeated {
  /** how many runs the figures come from; results without it ran once */
  repeats?: number;
  /** the lowest and highest of each SPREAD_KEYS figure over the runs (its median is the result's own field) */
  spread?: Spread<SpreadKey>;
}

const COUNTS = ['events', 'delivered', 'lost', 'duplicates', 'incomplete', 'resumes', 'replayed'] as const;

/**
 * The runs of one path as one result: each SPREAD_KEYS figure is the median over the runs, with its
 * range; events, deliveries, losses and duplicates add up over every run (one lost event in any run
 * shows), and `ready` is the fewest subscriptions any run had live.
 */
export function combineResults(runs: Result[]): Result & Repeated {
  if (runs.length === 0) throw new Error('combineResults: no runs');
  if (runs.some((r) => r.path !== runs[0].path)) throw new Error('combineResults: runs of different paths');
  if (runs.length === 1) return runs[0];
  const out: Result & Repeated = { ...runs[0] };
  const { medians, spread } = medianAndSpread(runs, SPREAD_KEYS);
  Object.assign(out, medians);
  for (const k of COUNTS) {
    const xs = runs.map((r) => r[k]).filter((x): x is number => typeof x === 'number');
    if (xs.length) out[k] = xs.reduce((a, x) => a + x, 0);
  }
  out.ready = Math.min(...runs.map((r) => r.ready));
  out.repeats = runs.length;
  out.spread = spread;
  return out;
}

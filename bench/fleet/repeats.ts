// One row out of several runs of the same fleet size: on a 2-core machine that hosts NATS, Cassandra, the
// control plane and the agents at once, one run of a row is one draw from a wide spread.
import { medianAndSpread, type Spread } from '../repeats.js';
import type { FleetResult } from './run.js';
import { READERS, type PerReader } from './readers.js';

/** The figures a row reports as the median of its runs, with their lowest and highest. */
export const SPREAD_KEYS = [
  'rollout_s',
  'submit_s',
  'p50_ms',
  'p99_ms',
  'status_events_per_s',
  'raw_status_events_per_s',
  'ratio_vs_raw',
  'reader_window_max_ms',
] as const;
export type SpreadKey = (typeof SPREAD_KEYS)[number];

export interface Repeated {
  /** how many runs the row's figures come from; rows without it ran once */
  repeats?: number;
  /** the lowest and highest of each SPREAD_KEYS figure over the runs (its median is the row's own field) */
  spread?: Spread<SpreadKey>;
}

/**
 * The runs of one size as one row: each SPREAD_KEYS figure is the median over the runs (a ratio is each
 * run's own, then their median: ours and raw of one run share its machine's state), with its range; the
 * per-reader and memory figures are those of the run with the median readers' rate; deliveries and
 * mismatches add up over every run, so one lost event in any run shows.
 */
export function combineRuns(runs: FleetResult[]): FleetResult & Repeated {
  if (runs.length === 0) throw new Error('combineRuns: no runs');
  if (runs.length === 1) return runs[0];
  const byRate = [...runs].sort((a, b) => a.status_events_per_s - b.status_events_per_s);
  const row: FleetResult & Repeated = { ...byRate[Math.floor((byRate.length - 1) / 2)] };
  const { medians, spread } = medianAndSpread(runs, SPREAD_KEYS);
  for (const k of SPREAD_KEYS) {
    const m = medians[k];
    if (m !== undefined) row[k] = k === 'ratio_vs_raw' ? Math.round(m * 100) / 100 : m;
  }
  row.delivered = runs.reduce((a, r) => a + r.delivered, 0);
  row.expected = runs.reduce((a, r) => a + r.expected, 0);
  row.mismatches = Object.fromEntries(
    READERS.map((k) => [k, runs.reduce((a, r) => a + r.mismatches[k], 0)]),
  ) as PerReader<number>;
  row.repeats = runs.length;
  row.spread = spread;
  return row;
}

import type { Repeat } from '../steps.js';

/** One repeat of a step that delivered all it was offered, with `x` changed. */
export const repeat = (x: Partial<Repeat> = {}, offered = x.offered_per_s ?? 10_000): Repeat => ({
  offered_per_s: offered,
  delivered_per_s: offered,
  p50_ms: 5,
  p99_ms: 20,
  lost: 0,
  duplicates: 0,
  rss_mb: 300,
  not_ready: 0,
  ...x,
});

// The saturation sweep's steps, one text for bench:subscriptions --sweep and npm run bench alike:
// `subs:rate,rate/subs:rate,…`, the rate being events/s each subscriber receives.
import type { SweepSeries } from './run.js';

/**
 * The steps (1k subscribers × 20…140 events/s, 10k × 2…10), then on while a path keeps up:
 * a series stops at its first step not sustained, so the fair ceiling's steps past ours are what
 * find its maximum (a ceiling that sustains every step offered bounds no ratio).
 */
export const SWEEP_SERIES = '1000:20,40,60,80,100,120,140,170,200,240,280/10000:2,4,6,8,10,13,16,20';
/** A short sweep (npm run bench -- --quick): the curve's shape and where it bends. */
export const QUICK_SWEEP_SERIES = '1000:20,50,80';
/** The realistic mix's steps: deliveries/s per subscriber, its fifty tenants each publishing that rate. */
export const MIX_SERIES = '1000:10,20,40,60,80';
export const QUICK_MIX_SERIES = '1000:10,20,40';

export const parseSeries = (text: string): SweepSeries[] =>
  text.split('/').map((part) => {
    const [subs, rates] = part.split(':');
    const s = { subs: Number(subs), rates: (rates ?? '').split(',').map(Number) };
    if (
      !Number.isInteger(s.subs) ||
      s.subs <= 0 ||
      !s.rates.length ||
      s.rates.some((r) => !Number.isInteger(r) || r <= 0)
    )
      throw new Error(`--series takes subs:rate,rate/subs:rate,… (got '${part}')`);
    return s;
  });

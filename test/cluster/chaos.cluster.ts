/**
 * Three minutes of the chaos run (test/chaos/run.ts; `npm run test:chaos` runs it longer): the
 * production topology under rollouts, resuming subscribers and faults, then every invariant checked.
 */
import { runChaos } from '../chaos/run.js';

describe('cluster: a chaos run', () => {
  it('three minutes of faults, one at a time then two overlapping: no invariant violated', async () => {
    const result = await runChaos({ minutes: Number(process.env.CHAOS_MINUTES ?? 3) });
    console.log(
      JSON.stringify({ chaos: { ...result, rss: undefined, faults: { ...result.faults, records: undefined } } }),
    );
    expect(result.violations).toEqual([]);
    // the run did what it claims: faults of several kinds, overlapping ones, rollouts, events checked
    expect(result.faults.injected).toBeGreaterThanOrEqual(8);
    expect(result.faults.overlapping).toBeGreaterThan(0);
    expect(result.rollouts.updates).toBeGreaterThan(0);
    expect(result.events_checked).toBeGreaterThan(result.events_in_stream);
  }, 900_000);
});

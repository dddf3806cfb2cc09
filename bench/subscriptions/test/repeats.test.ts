import { combineResults } from '../repeats.js';
import type { Result } from '../run.js';

const run = (o: Partial<Result>): Result => ({
  path: 'gateway',
  subscribers: 1000,
  ready: 1000,
  events: 300,
  delivered: 300_000,
  lost: 0,
  duplicates: 0,
  events_per_s: 20_000,
  p50_ms: 5,
  p99_ms: 30,
  rss_mb: 200,
  rss_per_1k_subs_mb: 10,
  ...o,
});

describe('combineResults', () => {
  it('reports each figure as the median of the runs with its lowest and highest', () => {
    const r = combineResults([
      run({ events_per_s: 19_000, p99_ms: 80 }),
      run({ events_per_s: 20_000, p99_ms: 25 }),
      run({ events_per_s: 18_000, p99_ms: 40 }),
    ]);
    expect(r.events_per_s).toBe(19_000);
    expect(r.p99_ms).toBe(40);
    expect(r.spread?.events_per_s).toEqual([18_000, 20_000]);
    expect(r.spread?.p99_ms).toEqual([25, 80]);
    expect(r.repeats).toBe(3);
  });

  it('adds up losses and deliveries over every run, and keeps the fewest subscriptions live', () => {
    const r = combineResults([
      run({ lost: 0, delivered: 300_000 }),
      run({ lost: 7, delivered: 299_993, ready: 998, duplicates: 2 }),
      run({ lost: 0, delivered: 300_000 }),
    ]);
    // one lossy run is not outvoted by two clean ones
    expect(r.lost).toBe(7);
    expect(r.duplicates).toBe(2);
    expect(r.delivered + r.lost).toBe(900_000);
    expect(r.events).toBe(900);
    expect(r.ready).toBe(998);
  });

  it('keeps counts only the runs had (the realistic mix counts resumes)', () => {
    const r = combineResults([run({ resumes: 3, replayed: 40 }), run({ resumes: 1, replayed: 10 })]);
    expect(r.resumes).toBe(4);
    expect(r.replayed).toBe(50);
    expect(r.incomplete).toBeUndefined();
  });

  it('returns a single run as it is, and refuses runs of different paths', () => {
    const one = run({});
    expect(combineResults([one])).toBe(one);
    expect(() => combineResults([run({}), run({ path: 'forward' })])).toThrow(/different paths/);
    expect(() => combineResults([])).toThrow(/no runs/);
  });
});

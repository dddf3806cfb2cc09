import { combineRuns } from '../repeats.js';
import type { FleetResult } from '../run.js';

const run = (o: Partial<FleetResult>): FleetResult =>
  ({
    clusters: 50,
    instances: 10_000,
    specs: 40,
    rollout_s: 15,
    submit_s: 10,
    p50_ms: 300,
    p99_ms: 800,
    status_events_per_s: 2_500,
    raw_status_events_per_s: 4_000,
    ratio_vs_raw: 0.63,
    reader_window_max_ms: 1_500,
    delivered: 20_000,
    expected: 20_000,
    control_plane_rss_mb: 500,
    mismatches: { nvcf: 0, icms: 0, 'nvca-status': 0 },
    ...o,
  }) as FleetResult;

describe('a fleet row from several runs', () => {
  it('is the median of each timed figure, with its range', () => {
    const row = combineRuns([
      run({ rollout_s: 18.4, p99_ms: 905, status_events_per_s: 2_720, raw_status_events_per_s: 4_648 }),
      run({ rollout_s: 14.9, p99_ms: 947, status_events_per_s: 2_842, raw_status_events_per_s: 4_105 }),
      run({ rollout_s: 16.7, p99_ms: 772, status_events_per_s: 2_195, raw_status_events_per_s: 3_941 }),
    ]);
    expect(row.repeats).toBe(3);
    expect(row.rollout_s).toBe(16.7);
    expect(row.spread?.rollout_s).toEqual([14.9, 18.4]);
    expect(row.p99_ms).toBe(905);
    expect(row.spread?.p99_ms).toEqual([772, 947]);
    expect(row.status_events_per_s).toBe(2_720);
    expect(row.raw_status_events_per_s).toBe(4_105);
  });

  it("takes each run's own ratio, not the ratio of the medians", () => {
    // ours and raw of one run share the machine's state of that moment
    const row = combineRuns([
      run({ status_events_per_s: 3_000, raw_status_events_per_s: 3_000, ratio_vs_raw: 1 }),
      run({ status_events_per_s: 2_000, raw_status_events_per_s: 5_000, ratio_vs_raw: 0.4 }),
      run({ status_events_per_s: 2_500, raw_status_events_per_s: 4_000, ratio_vs_raw: 0.625 }),
    ]);
    expect(row.ratio_vs_raw).toBe(0.63);
    expect(row.spread?.ratio_vs_raw).toEqual([0.4, 1]);
  });

  it("keeps the median run's other figures and adds up losses and mismatches of every run", () => {
    const row = combineRuns([
      run({ status_events_per_s: 1_000, control_plane_rss_mb: 400 }),
      run({ status_events_per_s: 3_000, control_plane_rss_mb: 600, delivered: 19_999 }),
      run({
        status_events_per_s: 2_000,
        control_plane_rss_mb: 500,
        mismatches: { nvcf: 0, icms: 2, 'nvca-status': 0 },
      }),
    ]);
    expect(row.control_plane_rss_mb).toBe(500);
    expect(row.delivered).toBe(59_999);
    expect(row.expected).toBe(60_000);
    expect(row.mismatches).toEqual({ nvcf: 0, icms: 2, 'nvca-status': 0 });
  });

  it('leaves a single run as it is, and refuses none', () => {
    const one = run({});
    expect(combineRuns([one])).toBe(one);
    expect(combineRuns([one]).spread).toBeUndefined();
    expect(() => combineRuns([])).toThrow('no runs');
  });

  it('skips a figure no run has (rows of runs before it existed)', () => {
    const row = combineRuns([run({ reader_window_max_ms: undefined }), run({ reader_window_max_ms: undefined })]);
    expect(row.spread?.reader_window_max_ms).toBeUndefined();
    expect(row.spread?.rollout_s).toEqual([15, 15]);
  });
});

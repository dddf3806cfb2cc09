import { StreamMetrics } from '../src/index.js';

const value = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.split(' ')[1],
  );

describe('status stream metrics', () => {
  it('counts deliveries per tenant into a cumulative latency histogram', () => {
    // latencies far from the bucket bounds: the test's own run time (well under 20 ms) cannot move one
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const m = new StreamMetrics();
    const thirty = ago(30);
    m.delivered('a', thirty, false); // one event, two subscribers: 30 ms each
    m.delivered('a', thirty, true); // the second one lagged
    m.delivered('a', ago(200), false);
    m.delivered('a', ago(20_000), false); // past the last bucket
    m.delivered('b', ago(30), false);
    const text = m.render();
    const bucket = (tenant: string, le: string) =>
      value(text, `nvcf_status_delivery_latency_ms_bucket{tenant="${tenant}",le="${le}"}`);
    expect(value(text, 'nvcf_status_events_delivered_total{tenant="a"}')).toBe(4);
    expect(value(text, 'nvcf_status_lag_events_total{tenant="a"}')).toBe(1);
    expect(['1', '25', '50', '100', '250', '10000', '+Inf'].map((le) => bucket('a', le))).toEqual([
      0, 0, 2, 2, 3, 3, 4,
    ]);
    const sum = value(text, 'nvcf_status_delivery_latency_ms_sum{tenant="a"}');
    expect(sum).toBeGreaterThanOrEqual(30 + 30 + 200 + 20_000);
    expect(sum).toBeLessThan(30 + 30 + 200 + 20_000 + 4 * 20);
    expect(value(text, 'nvcf_status_delivery_latency_ms_count{tenant="a"}')).toBe(4);
    expect([bucket('b', '25'), bucket('b', '50'), bucket('b', '+Inf')]).toEqual([0, 1, 1]);
  });
});

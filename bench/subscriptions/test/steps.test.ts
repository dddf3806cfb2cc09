import { median } from '../../lib.js';
import { summarizeStep } from '../steps.js';
import { repeat } from './fixtures.js';

describe('a sweep step from its repeats', () => {
  it('takes the median, and the min and max as the spread', () => {
    const s = summarizeStep(
      10_000,
      [repeat({ p99_ms: 90, rss_mb: 310 }), repeat({ p99_ms: 30, rss_mb: 290 }), repeat({ p99_ms: 50 })],
      100,
    );
    expect(s.median.p99_ms).toBe(50);
    expect(s.min.p99_ms).toBe(30);
    expect(s.max.p99_ms).toBe(90);
    expect(s.median.rss_mb).toBe(300);
    expect(s.sustained).toBe(true);
  });

  it('averages the two middle values of an even count and skips NaN', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('is not sustained when the median delivers less than 99 % of the offered rate', () => {
    const s = summarizeStep(
      10_000,
      [repeat({ delivered_per_s: 9_850 }), repeat({}), repeat({ delivered_per_s: 9_800 })],
      100,
    );
    expect(s.median.delivered_per_s).toBe(9_850);
    expect(s.sustained).toBe(false);
    expect(s.reason).toMatch(/delivered 9850\/s < 0.99/);
    expect(summarizeStep(10_000, [repeat({ delivered_per_s: 9_900 })], 100).sustained).toBe(true);
  });

  it('is not sustained when the median p99 passes the bound, even if one repeat is within it', () => {
    const s = summarizeStep(10_000, [repeat({ p99_ms: 120 }), repeat({ p99_ms: 80 }), repeat({ p99_ms: 101 })], 100);
    expect(s.sustained).toBe(false);
    expect(s.reason).toBe('p99 101 ms');
  });

  it('is not sustained when any one repeat lost anything, however good the median', () => {
    const s = summarizeStep(10_000, [repeat({}), repeat({ lost: 1, duplicates: 2 }), repeat({})], 100);
    expect(s).toMatchObject({ lost: 1, duplicates: 2, sustained: false, reason: '1 lost' });
  });

  it('is not sustained when a subscription was not live in a repeat', () => {
    expect(summarizeStep(10_000, [repeat({}), repeat({ not_ready: 3 })], 100).reason).toBe('3 subscriptions not live');
  });

  it('fails a step on duplicates: a subscription delivers each event once, across a resume too', () => {
    const s = summarizeStep(10_000, [repeat({ duplicates: 4 })], 100);
    expect(s).toMatchObject({ duplicates: 4, sustained: false, reason: '4 duplicates' });
  });

  it('fails a step on a delivery without its remote fields, and counts them only where the repeats do', () => {
    expect(summarizeStep(10_000, [repeat({})], 100)).not.toHaveProperty('incomplete');
    const s = summarizeStep(10_000, [repeat({ incomplete: 0 }), repeat({ incomplete: 2 })], 100);
    expect(s).toMatchObject({ incomplete: 2, sustained: false, reason: '2 deliveries without their remote fields' });
  });
});

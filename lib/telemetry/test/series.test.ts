/**
 * `with(labels)` resolves a family's series once for a caller on a hot path (a durable reader
 * counts every message); what it records must be exactly what the per-call form records.
 */
import { Counter, Gauge, Histogram } from '../src/index.js';

describe('series resolved once', () => {
  it('a bound counter adds to the same series as inc(labels)', () => {
    const c = new Counter('t_total', 'help', ['stream', 'outcome']);
    const bound = c.with({ outcome: 'ack', stream: 's' });
    bound.inc();
    bound.inc(2);
    c.inc({ stream: 's', outcome: 'ack' });
    c.inc({ stream: 's', outcome: 'nak' });
    expect(c.render().split('\n').slice(2)).toEqual([
      't_total{stream="s",outcome="ack"} 4',
      't_total{stream="s",outcome="nak"} 1',
    ]);
  });

  it('a bound counter that is never incremented renders no series', () => {
    const c = new Counter('t_total', 'help', ['outcome']);
    c.with({ outcome: 'dead' });
    expect(c.render().split('\n').slice(2)).toEqual([]);
  });

  it('a bound histogram observes and times into the series of its labels', () => {
    const h = new Histogram('t_seconds', 'help', ['durable'], [0.5, 10]);
    const bound = h.with({ durable: 'd' });
    bound.observe(0.2);
    h.observe({ durable: 'd' }, 3);
    const done = bound.time();
    done();
    const lines = h.render().split('\n');
    expect(lines).toContain('t_seconds_bucket{durable="d",le="0.5"} 2');
    expect(lines).toContain('t_seconds_bucket{durable="d",le="10"} 3');
    expect(lines).toContain('t_seconds_count{durable="d"} 3');
  });

  it('a bound gauge sets the series set(labels) sets', () => {
    const g = new Gauge('t_lag', 'help', ['durable']);
    const bound = g.with({ durable: 'd' });
    bound.set(5);
    g.set({ durable: 'd' }, 7);
    bound.set(1.5);
    expect(g.render().split('\n').slice(2)).toEqual(['t_lag{durable="d"} 1.5']);
  });

  it('labels beyond the series limit fold into `other` when bound, as per call', () => {
    const c = new Counter('t_total', 'help', ['tenant']);
    for (let i = 0; i < 1000; i++) c.inc({ tenant: `t${i}` });
    c.with({ tenant: 'late' }).inc();
    c.inc({ tenant: 'later' });
    const rows = c.render().split('\n').slice(2);
    expect(rows).toHaveLength(1001);
    expect(rows).toContain('t_total{tenant="other"} 2');
  });
});

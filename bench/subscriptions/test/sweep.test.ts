import { startRun } from '../../provenance/run.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionGroups, type SweepCurve, type SweepStep } from '../run.js';
import { summarizeStep, type Repeat } from '../steps.js';
import { repeat } from './fixtures.js';
import { mergeSweep, plotSeries, sweepSection } from '../sweep-results.js';
import { sweepSvg } from '../plot.js';
import { renderSweep } from '../sweep-report.js';

const step = (rate: number, reps: Repeat[]): SweepStep => ({
  rate,
  ...summarizeStep(rate * 1000, reps, 100),
  repeats: reps,
});
const curves: SweepCurve[] = [
  {
    path: 'service',
    subs: 1000,
    steps: [
      step(20, [
        repeat({ offered_per_s: 20_000 }),
        repeat({ offered_per_s: 20_000 }),
        repeat({ offered_per_s: 20_000 }),
      ]),
      step(40, [repeat({ offered_per_s: 40_000, lost: 2 })]),
    ],
    stopped: '1000 × 40/s: 2 lost',
  },
  {
    path: 'fair_ceiling',
    subs: 1000,
    steps: [step(20, [repeat({ offered_per_s: 20_000 })]), step(40, [repeat({ offered_per_s: 40_000 })])],
  },
];
const opts = { seconds: 15, p99BoundMs: 100, repeats: 3, plot: 'results/x.svg', cosmoSkipped: 'no binary' };

describe('the sweep section of latest.json', () => {
  it('names ours best case and the fair ceiling, each with its curve, steps and repeats', () => {
    const s = sweepSection(curves, opts);
    expect(s.best_case?.max_sustained_events_per_s).toBe(20_000);
    expect(s.fair_ceiling?.max_sustained_events_per_s).toBe(40_000);
    expect(s.ratio_best_case_vs_fair_ceiling).toBe(0.5);
    expect(s.npm_start).toBeUndefined();
    const first = s.best_case!.curves[0].steps[0];
    expect(first.repeats).toHaveLength(3);
    expect(Object.keys(first.repeats[0]).sort()).toEqual(
      ['delivered_per_s', 'duplicates', 'lost', 'not_ready', 'offered_per_s', 'p50_ms', 'p99_ms', 'rss_mb'].sort(),
    );
    expect(s.best_case!.curves[0].stopped).toBe('1000 × 40/s: 2 lost');
  });

  it('writes the sweep, with its run, as a section of its own and leaves the other sections', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sweep-')), 'latest.json');
    const other = { run: { commit: 'abc1234' }, ours_rps: 1 };
    writeFileSync(file, JSON.stringify({ queries: other, subscriptions: { ...other, runs: [] } }));
    const run = startRun().finish();
    mergeSweep({ run, ...sweepSection(curves, opts) }, file);
    const out = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(out.queries).toEqual(other);
    expect(out.subscriptions).toEqual({ ...other, runs: [] });
    expect(out.sweep.run).toEqual(run);
    expect(out.sweep.fair_ceiling).toMatchObject({ max_sustained_events_per_s: 40_000 });
  });

  it('plots every named series, a later one included, with its spread', () => {
    const s = sweepSection(curves, opts);
    const mix = { ...s.best_case!, label: 'ours, mix' };
    const series = plotSeries({ ...s, mix });
    expect(series.map((x) => x.name)).toEqual([s.best_case!.label, s.fair_ceiling!.label, 'ours, mix']);
    const svg = sweepSvg(series, 100);
    // one median line and one spread band per series and panel
    expect(svg.match(/<polyline/g)).toHaveLength(6);
    expect(svg.match(/<polygon/g)).toHaveLength(6);
    expect(svg).toContain('ours, mix, 1,000 subscribers');
  });
});

describe('whether the sweep found the fair ceiling', () => {
  const ceiling = (stopped?: string): SweepCurve => ({
    path: 'fair_ceiling',
    subs: 1000,
    steps: [
      step(20, [repeat({ offered_per_s: 20_000 })]),
      step(40, [repeat({ offered_per_s: 40_000, ...(stopped ? { p99_ms: 300 } : {}) })]),
    ],
    ...(stopped ? { stopped } : {}),
  });

  it('is reached only when a step past its highest sustained one was not sustained', () => {
    const open = sweepSection([curves[0], ceiling()], opts);
    expect(open.fair_ceiling_reached).toBe(false);
    expect(renderSweep({ run: startRun().finish(), ...open })).toContain('each ratio to it is only an upper bound');
    const found = sweepSection([curves[0], ceiling('1000 × 40/s: p99 300 ms')], opts);
    expect(found.fair_ceiling_reached).toBe(true);
    expect(found.fair_ceiling?.max_sustained_events_per_s).toBe(20_000);
    expect(renderSweep({ run: startRun().finish(), ...found })).not.toContain('upper bound');
  });

  it('is not reached by a series that stopped below the highest sustained step of another', () => {
    const tenK: SweepCurve = {
      path: 'fair_ceiling',
      subs: 10_000,
      steps: [step(2, [repeat({ offered_per_s: 10_000, p99_ms: 300 })])],
      stopped: '10000 × 2/s: p99 300 ms',
    };
    expect(sweepSection([curves[0], ceiling(), tenK], opts).fair_ceiling_reached).toBe(false);
  });

  it('is not reached by a ceiling that could not start', () => {
    const none: SweepCurve = { path: 'fair_ceiling', subs: 1000, steps: [], stopped: 'could not start: EADDRINUSE' };
    expect(sweepSection([curves[0], none], opts).fair_ceiling_reached).toBe(false);
  });
});

describe('the realistic mix in the sweep', () => {
  const mixCurve: SweepCurve = {
    path: 'mix',
    subs: 1000,
    steps: [
      step(10, [repeat({ offered_per_s: 10_000, incomplete: 0, resumes: 20, replayed: 7 })]),
      step(20, [repeat({ offered_per_s: 20_000, incomplete: 3, resumes: 20, replayed: 9 })]),
    ],
    stopped: '1000 × 20/s: 3 deliveries without their remote fields',
  };
  const s = sweepSection([...curves, mixCurve], opts);

  it('is a series of its own, beside the best case, with its ratio to the fair ceiling', () => {
    expect(s.mix).toMatchObject({ label: 'ours, realistic mix', max_sustained_events_per_s: 10_000 });
    expect(s.ratio_mix_vs_fair_ceiling).toBe(0.25);
    expect(s.best_case?.max_sustained_events_per_s).toBe(20_000);
    expect(Object.keys(s).indexOf('mix')).toBe(Object.keys(s).indexOf('best_case') + 1);
    // a sweep without it keeps the section as it was
    expect(sweepSection(curves, opts)).not.toHaveProperty('mix');
  });

  it('is the third line of the plot', () => {
    expect(plotSeries(s).map((x) => x.name)).toEqual([
      s.best_case!.label,
      'ours, realistic mix',
      s.fair_ceiling!.label,
    ]);
  });

  it('renders beside the best case with its missing remote fields and resumes', () => {
    const md = renderSweep({ run: startRun().finish(), ...s });
    expect(md.indexOf('**ours, realistic mix**')).toBeGreaterThan(md.indexOf(`**${s.best_case!.label}**`));
    expect(md.indexOf('**ours, realistic mix**')).toBeLessThan(md.indexOf(`**${s.fair_ceiling!.label}**`));
    expect(md).toContain('| 20 (9) |');
    expect(md).toContain('realistic mix **10 000**/s (0.25 × the fair ceiling)');
    expect(renderSweep({ run: startRun().finish(), ...sweepSection(curves, opts) })).toContain(
      'Realistic mix: not run in this sweep',
    );
  });
});

describe('sessions of a sweep', () => {
  it('interleaves ours and the fair ceiling, and runs npm start and the realistic mix alone', () => {
    expect(sessionGroups(['gateway', 'service', 'fair_ceiling'])).toEqual([['gateway'], ['service', 'fair_ceiling']]);
    expect(sessionGroups(['mix', 'service', 'fair_ceiling'])).toEqual([['mix'], ['service', 'fair_ceiling']]);
  });
});

describe('the Cosmo router EDFS in the sweep', () => {
  const withCosmo: SweepCurve[] = [
    ...curves,
    {
      path: 'cosmo_edfs',
      subs: 1000,
      steps: [step(20, [repeat({ offered_per_s: 20_000, lost: 3000 })])],
      stopped: '1000 × 20/s: 3000 lost',
    },
  ];

  it('is a series of its own with its reason to stop, interleaved with ours and the ceiling', () => {
    const s = sweepSection(withCosmo, { ...opts, cosmoSkipped: null });
    expect(s.cosmo_edfs.skipped).toBeNull();
    expect('curves' in s.cosmo_edfs && s.cosmo_edfs.curves[0].stopped).toBe('1000 × 20/s: 3000 lost');
    // nothing sustained: no ratio to divide by
    expect(s.cosmo_edfs.max_sustained_events_per_s).toBeNull();
    expect(s.ratio_best_case_vs_cosmo_edfs).toBeNull();
    expect(plotSeries(s).map((x) => x.name)).toContain('Cosmo router, EDFS over NATS');
    expect(sessionGroups(['service', 'fair_ceiling', 'cosmo_edfs'])).toEqual([
      ['service', 'fair_ceiling', 'cosmo_edfs'],
    ]);
    const md = renderSweep({ run: startRun().finish(), ...s });
    expect(md).toContain('**Cosmo router, EDFS over NATS**, 1 000 subscribers (stopped: 1000 × 20/s: 3000 lost)');
    expect(md).toContain('neither authenticates');
  });

  it('says why when it did not run', () => {
    const s = sweepSection(curves, opts);
    expect(s.cosmo_edfs).toEqual({ max_sustained_events_per_s: null, skipped: 'no binary' });
    expect(renderSweep({ run: startRun().finish(), ...s })).toContain('Cosmo EDFS over NATS: not run — no binary.');
  });
});

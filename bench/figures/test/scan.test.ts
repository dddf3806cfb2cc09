import { scanMarkdown, type Figure } from '../scan.js';
import { indexResults, unsourced } from '../sources.js';

// one results file in miniature: what the figures below are checked against
const results = indexResults([
  {
    queries: { ours_rps: 224, ratios: { ours_vs_hive_rust_qp: 0.95 }, detail: [{ p99_ms: 402, peak_rss_mb: 847 }] },
    sweep: {
      max_sustained_events_per_s: 120_000,
      curves: [{ steps: [{ rate: 20, offered_per_s: 140_000, delivered_per_s: 20_043 }] }],
    },
    rollout: { instances_1000_s: 5.535 },
  },
]);
const found = (md: string) => unsourced(scanMarkdown(md, 'doc.md'), results).map((f: Figure) => f.text);

describe('figures that read like benchmark results', () => {
  it('fails an undated figure the results do not hold', () => {
    expect(found('We measured ours at 140 000 deliveries/s, 1.00× the raw fan-out.')).toEqual(['140 000', '1.00']);
    expect(found('The static server does ~2 400 rps here (benchmark).')).toEqual(['2 400']);
    expect(found('Measured: p99 3.0 s, 15.7k/s.')).toEqual(['3.0', '15.7k']);
  });

  it('passes a figure the results hold, rounded as it is written', () => {
    expect(found('Measured: ours 224 rps (0.95×), p99 402 ms, 847 MB; the sweep sustains 120 000/s, 120k/s.')).toEqual(
      [],
    );
    expect(found('The 1000-instance rollout is measured at 5.5 s.')).toEqual([]);
    // the unit must agree: 224 is a throughput, not a latency
    expect(found('Measured p99 224 ms.')).toEqual(['224']);
  });

  it('passes a figure dated to its run: a date and the command, commit or results file', () => {
    expect(found('Measured 140 000/s (run of 2026-11-29, commit abc1234).')).toEqual([]);
    expect(found('Measured 140 000/s (2026-12-01, `npm run bench:subscriptions -- --sweep`).')).toEqual([]);
    // a date alone does not say which run
    expect(found('Measured 140 000/s on 2026-12-01.')).toEqual(['140 000']);
    // a table is dated by the paragraph that introduces it
    expect(
      found('Measured (2026-11-29, commit abc1234):\n\n| change | p99 |\n| --- | --- |\n| x | 2 996 ms |'),
    ).toEqual([]);
    expect(found('Measured:\n\n| change | p99 |\n| --- | --- |\n| x | 2 996 ms |')).toEqual(['2 996']);
  });

  it('reads table columns by the unit in their header', () => {
    expect(
      found('| path | delivered/s | µs per delivery |\n| --- | --- | --- |\n| ours | 15 743 | 4.41 / 3.92 |'),
    ).toEqual(['15 743', '4.41', '3.92']);
  });

  it('leaves settings, bounds and code alone', () => {
    // no measurement in the paragraph: a limit or a default
    expect(found('Requests time out after 30 s; bodies are limited to 10 MB.')).toEqual([]);
    // targets and bounds, products of settings, offered rates, commands
    expect(
      found(
        'Measured against the target (p99 ≤ 100 ms, ≥ 50 000/s, target 15 s); 1k × 140/s, 20 000 deliveries/s asked for; `npm run bench:subscriptions -- --seconds 15`.',
      ),
    ).toEqual([]);
    expect(found('A 1280×800 screen; benchmark')).toEqual([]);
    // the explicit exemption says why
    expect(found('The probe measures every 5 s <!-- not a result: the probe interval -->.')).toEqual([]);
  });
});

// The fleet section of bench/RESULTS.md (between markers, so a rerun replaces only it) and its plot.
import type { FleetResult } from './run.js';
import type { Repeated, SpreadKey } from './repeats.js';
import { withRange } from '../repeats.js';
import { READERS, type PerReader } from './readers.js';
import { runLine } from '../provenance/render.js';
import type { Run } from '../provenance/run.js';

const START = '<!-- fleet:start (written by npm run bench:fleet) -->';
const END = '<!-- fleet:end -->';
const n = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits }).replace(/,/g, ' ');

/** A row of the fleet table and the run that measured it (with --append, rows come from several commands). */
export type FleetRow = FleetResult & Repeated & { run: Run };

export interface FleetRun {
  /** the command that last wrote the file */
  run: Run;
  services: string;
  results: FleetRow[];
}

const size = (r: FleetRow) =>
  `${r.services?.startsWith('3-node') ? 'ring' : 'single nodes'} ${n(r.clusters)} × ${n(r.instances)}`;

/** One line per distinct run, naming the rows it measured. */
function rowRuns(rows: FleetRow[]): string[] {
  const byRun = new Map<string, FleetRow[]>();
  for (const r of rows) {
    const key = JSON.stringify(r.run ?? null);
    byRun.set(key, [...(byRun.get(key) ?? []), r]);
  }
  return [...byRun.values()].map((rs) => `- ${rs.map(size).join(', ')} — ${runLine(rs[0]?.run)}`);
}

interface Series {
  label: string;
  color: string;
  ys: number[];
}

/** One panel: x = instances (log scale), y linear from 0. */
function panel(x0: number, title: string, unit: string, xs: number[], series: Series[]): string {
  const w = 360;
  const h = 220;
  const pad = { l: 50, r: 10, t: 28, b: 36 };
  const lx = xs.map(Math.log10);
  const [minX, maxX] = [Math.min(...lx), Math.max(...lx)];
  const maxY = Math.max(1, ...series.flatMap((s) => s.ys)) * 1.1;
  const px = (x: number) => x0 + pad.l + ((Math.log10(x) - minX) / (maxX - minX || 1)) * (w - pad.l - pad.r);
  const py = (y: number) => pad.t + (1 - y / maxY) * (h - pad.t - pad.b);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxY);
  const out = [
    `<text x="${x0 + w / 2}" y="16" text-anchor="middle" font-weight="bold">${title}</text>`,
    `<line x1="${x0 + pad.l}" y1="${py(0)}" x2="${x0 + w - pad.r}" y2="${py(0)}" stroke="#888"/>`,
    `<line x1="${x0 + pad.l}" y1="${pad.t}" x2="${x0 + pad.l}" y2="${py(0)}" stroke="#888"/>`,
    ...ticks.map(
      (t) => `<text x="${x0 + pad.l - 4}" y="${py(t) + 4}" text-anchor="end">${n(t, t < 10 ? 1 : 0)}</text>`,
    ),
    ...xs.map((x) => `<text x="${px(x)}" y="${h - pad.b + 14}" text-anchor="middle">${n(x)}</text>`),
    `<text x="${x0 + w / 2}" y="${h - 6}" text-anchor="middle">instances (log scale); ${unit}</text>`,
  ];
  series.forEach((s, i) => {
    const pts = xs.map((x, j) => `${px(x).toFixed(1)},${py(s.ys[j] ?? 0).toFixed(1)}`);
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts.join(' ')}"/>`);
    out.push(...xs.map((x, j) => `<circle cx="${px(x)}" cy="${py(s.ys[j] ?? 0)}" r="3" fill="${s.color}"/>`));
    out.push(`<text x="${x0 + pad.l + 8}" y="${pad.t + 12 + i * 14}" fill="${s.color}">${s.label}</text>`);
  });
  return out.join('\n');
}

/** The plot the benchmark writes (bench/results/fleet.svg): time and latency against fleet size. */
export function fleetSvg(rs: FleetResult[]): string {
  const xs = rs.map((r) => r.instances);
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="220" font-family="sans-serif" font-size="11">',
    '<rect width="100%" height="100%" fill="white"/>',
    panel(0, 'Time to APPLIED', 'seconds', xs, [
      { label: 'rollout (update → APPLIED)', color: '#1f77b4', ys: rs.map((r) => r.rollout_s) },
      { label: 'first deploy', color: '#ff7f0e', ys: rs.map((r) => r.deploy_s) },
    ]),
    panel(360, 'Agent report → subscriber event', 'milliseconds', xs, [
      { label: 'p99', color: '#d62728', ys: rs.map((r) => r.p99_ms) },
      { label: 'p50', color: '#2ca02c', ys: rs.map((r) => r.p50_ms) },
    ]),
    panel(720, 'Status messages per second', 'messages/s', xs, [
      { label: 'NvcaStatusStream', color: '#9467bd', ys: rs.map((r) => r.msgs_per_s.NvcaStatusStream ?? 0) },
    ]),
    '</svg>',
    '',
  ].join('\n');
}

const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

// rows of runs before these columns existed lack their fields
const dash = '–';
const opt = <T>(v: T | null | undefined, show: (x: T) => string) => (v === null || v === undefined ? dash : show(v));
/** A figure, and its lowest–highest over the row's runs when it has several. */
const ranged = (r: FleetRow, k: SpreadKey, show: (x: number) => string, bold = false) => {
  const v = r[k];
  if (v === null || v === undefined) return dash;
  return withRange(v, r.spread?.[k], show, bold);
};
const perReader = (v: PerReader<number | null> | undefined, unit = '') =>
  v ? READERS.map((k) => `${k} ${opt(v[k], (x) => n(x))}`).join(', ') + unit : dash;

export function fleetSection(f: FleetRun): string {
  const rows = f.results.map((r) => [
    r.services?.startsWith('3-node') ? '3-node NATS + 3-node Cassandra (R3, RF 3)' : 'single NATS + single Cassandra',
    r.control_plane === 'processes' ? 'a process per service' : 'one process',
    n(r.clusters),
    n(r.instances),
    n(r.specs),
    `${n(r.deploy_s, 1)} s`,
    ranged(r, 'rollout_s', (x) => `${n(x, 1)} s`, true),
    r.submit_concurrency === undefined
      ? 'one by one'
      : `${n(r.submit_concurrency)} at once${r.submit_s === undefined ? '' : `, ${ranged(r, 'submit_s', (x) => `${n(x, 1)} s`)}`}`,
    n(r.msgs_per_s.UpdateNvcaInstanceStream ?? 0),
    n(r.msgs_per_s.NvcaStatusStream ?? 0),
    `${n(r.delivered)} / ${n(r.expected)}`,
    ranged(r, 'p50_ms', (x) => `${n(x)} ms`),
    ranged(r, 'p99_ms', (x) => `${n(x)} ms`),
    `${n(r.rss_per_agent_mb, 1)} MB`,
    `${n(r.control_plane_rss_mb)} MB`,
    `${n(r.rss_per_1k_instances_mb, 1)} MB`,
    ranged(r, 'status_events_per_s', (x) => n(x), true),
    ranged(r, 'raw_status_events_per_s', (x) => n(x)),
    ranged(r, 'ratio_vs_raw', (x) => n(x, 2)),
    perReader(r.reader_lag_max_ms, ' ms'),
    ranged(r, 'reader_window_max_ms', (x) => `${n(x)} ms`),
    opt(r.lwt_per_event, (x) => n(x, 2)),
    r.mismatches ? READERS.map((k) => n(r.mismatches[k])).join(' / ') : dash,
  ]);
  return [
    START,
    '## Fleet',
    '',
    `Rows (clusters × instances) on ${f.services}, each from its own run (a row of several runs, \`--repeat\`,`,
    'shows the median of each timed figure and, in brackets, its lowest–highest; its memory and per-reader figures',
    "are those of the run with the median readers' rate, its deliveries and mismatches the sum over its runs):",
    '',
    ...rowRuns(f.results),
    '',
    'The control plane runs without agents, either as deployed (a process per service: two gateways, two nvcf',
    'replicas, icms, nvca-status, `--control-plane processes`) or in one process as `npm start` runs it',
    '(`--control-plane one`, the default, and every row before the column existed); the N simulated',
    'clusters have one agent each (own durable consumers, 10 ms apply), hosted by 4 agent processes that share one NATS',
    'connection per process. M instances are deployed in GPU specifications of up to 250 instances, then every',
    'specification gets a new revision; one WebSocket subscriber per specification watches. Time to APPLIED is from the',
    "first `updateGpuSpecification` to every revision APPLIED, the updates submitted side by side as an operator's script",
    'would (`--submit-concurrency`, 8; rows without it submitted them one after another); messages/s are the messages stored per stream during the',
    "rollout divided by its time; latency is the subscriber's arrival time minus the event's `at` (the agent's report);",
    'memory is resident set size after the rollout (agents: all agent processes ÷ clusters; per 1k instances: the',
    "control plane's growth from idle ÷ thousands of instances). Status events/s: what the slowest of the three",
    'status readers (nvcf, icms, nvca-status) applies per second when the events come faster than it takes them: after',
    'the rollout, with the agents stopped, two events per instance (UPDATING, ACTIVE, newer clocks) are published to the',
    'status stream at full speed and each reader is timed from the first publish to its last acknowledgement',
    "(`fleet/burst.ts`; each reader's consumer ack floor, read from NATS every 20 ms). During the rollout itself",
    'the readers only see what the agents publish (rollout events/s in fleet.json). Raw: the same events, the same',
    'publisher, a stream of its own, written by three minimal readers as plain rows at LOCAL_QUORUM with the',
    'same max ack pending, nothing of the control plane in between (`fleet/raw.ts`); ratio: ours ÷ raw. Reader lag:',
    'the largest `nvcf_bus_consumer_lag_seconds` (publish to applied) each reader showed; readers apart: during the',
    'rollout, the longest time between the first and the last of the three readers having applied the same number of',
    "its events (from the rollout's metric scrapes, so to their interval): how long services disagree; LWT/event: the stores'",
    'lightweight transactions during the rollout ÷ its status events. Mismatches: instances whose newest event on the',
    'stream (read back after the row) a store does not hold, nvcf / icms / nvca-status. Raw numbers: `results/fleet.json`.',
    '',
    table(
      [
        'services',
        'control plane',
        'clusters',
        'instances',
        'specs',
        'deploy',
        'rollout to APPLIED',
        'updates submitted',
        'update msgs/s',
        'status msgs/s',
        'events delivered',
        'p50',
        'p99',
        'RSS per agent',
        'control plane RSS',
        'RSS per 1k instances',
        'status events/s (slowest reader)',
        'raw events/s',
        'ratio',
        'reader lag max',
        'readers apart max',
        'LWT/event',
        'mismatches',
      ],
      rows,
    ),
    '',
    '![fleet curves](results/fleet.svg)',
    '',
    'Where the time goes, the first bottleneck, and the 200-cluster fleet that did not complete here: [docs/scaling.md](../docs/scaling.md#measured-here).',
    END,
  ].join('\n');
}

/** Replaces the fleet section of RESULTS.md, or appends it; the rest of the file stays as it is. */
export function renderFleetSection(md: string, f: FleetRun): string {
  const section = fleetSection(f);
  const a = md.indexOf(START);
  const b = md.indexOf(END);
  if (a >= 0 && b > a) return md.slice(0, a) + section + md.slice(b + END.length);
  return `${md.trimEnd()}\n\n${section}\n`;
}

// Renders bench/RESULTS.md from bench/results/latest.json (each section beside the run it came from) plus the
// hand-written analysis (bench/ANALYSIS.md).
import { readFileSync, existsSync } from 'node:fs';
import type { QueryResult } from './queries/run.js';
import type { SubscriptionRun } from './results.js';
import { renderFleetSection, type FleetRun } from './fleet/report.js';
import { withChaosSection } from './chaos/report.js';
import { hardening, type HardeningSection } from './hardening/report.js';
import type { Latest } from './provenance/latest.js';
import { runLine } from './provenance/render.js';
import { renderSweep } from './subscriptions/sweep-report.js';
import type { SpreadKey as SubscriptionSpreadKey } from './subscriptions/repeats.js';
import { withRange } from './repeats.js';

const n = (x: number | null | undefined, digits = 0) =>
  x == null || Number.isNaN(x) ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits }).replace(/,/g, ' ');
const met = (ok: boolean) => (ok ? 'met' : '**missed**');
const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

function queries(q: any): string {
  if (!q || q.error) return `Failed: ${q?.error ?? 'not run'}`;
  const rows = (q.detail as QueryResult[]).map((r) => [
    r.label,
    `**${n(r.rps)}**`,
    r.rounds_rps.map((x) => n(x)).join(' / '),
    `${n(r.p50_ms)} ms`,
    `${n(r.p99_ms)} ms`,
    `${n(r.peak_rss_mb)} MB`,
    n(r.bad),
    r.key === 'ceiling' ? '–' : n(r.subgraph_calls_per_request, 2),
    r.key === 'ours' ? '1.00' : (q.ours_rps / r.rps).toFixed(2),
  ]);
  return [
    runLine(q.run),
    '',
    `graphql-hive/graphql-gateways-benchmark's TestQuery (4 subgraphs: accounts, inventory, products, reviews; an 87 599-byte`,
    `answer built from 6+ subgraph fetches) through each gateway: autocannon with ${q.connections} connections for ${q.seconds} s after a warm-up,`,
    `${q.rounds} round(s) interleaved (median round shown, every round listed), gateway pinned to core 0 alone; subgraphs, load`,
    `and any running services on core 1. Every response is compared with the benchmark's expected answer; a wrong or non-200 answer`,
    `does not count. No inbound request deduplication anywhere; identical subgraph calls in flight at once are shared where the`,
    `gateway does so by default (the subgraph calls per request column shows it; with nothing shared and entity fetches batched it is 7).`,
    '',
    table(
      [
        'gateway',
        'rps',
        'rounds (rps)',
        'p50',
        'p99',
        'peak RSS',
        'bad answers',
        'subgraph calls / request',
        'ours ÷ this',
      ],
      rows,
    ),
    '',
    ...(q.skipped?.length
      ? ['', ...q.skipped.map((x: { label: string; reason: string }) => `Not run: ${x.label} — ${x.reason}`), '']
      : ['']),
    `Targets: ours ≥ 1.0× Hive Gateway + Rust planner (${q.ratios.ours_vs_hive_rust_qp?.toFixed(2)}×): ${met(q.ratios.ours_vs_hive_rust_qp >= 1)};`,
    `ours ≥ 3× Apollo Gateway (${q.ratios.ours_vs_apollo_gateway?.toFixed(2)}×): ${met(q.ratios.ours_vs_apollo_gateway >= 3)}.`,
    // native routers: no target, the honest ratio (below 1 means they serve more than ours)
    ...(['hive_router', 'cosmo_router'] as const)
      .filter((k) => q.ratios[`ours_vs_${k}`] != null)
      .map(
        (k) =>
          `Native: ours ÷ ${k === 'hive_router' ? 'Hive Router' : 'Cosmo router'} = ${(q.ratios[`ours_vs_${k}`] as number).toFixed(2)}×.`,
      ),
  ].join('\n');
}

const label = {
  gateway: 'ours: gateway fan-out inside npm start (whole control plane, one process)',
  service: 'ours: gateway service alone (its own process, as the chart deploys it)',
  forward: 'Hive Gateway forwarding to nvca-status (graphql-ws)',
  fair_ceiling: "fair ceiling: NATS events over WebSockets with ours' batching, no GraphQL",
  cosmo_edfs: 'Cosmo router, EDFS over NATS',
  mix: 'ours: realistic mix (two gateway replicas, real subgraphs, fifty tenants)',
  // runs recorded before the fair ceiling: one ws.send per subscription, which batches less than ours
  ceiling: 'unbatched WebSocket fan-out from NATS (not an upper bound)',
} as const;

/** A fixed-rate figure, and its lowest–highest when the result comes from several runs. */
const spreadOf = (
  r: SubscriptionRun['results'][number],
  k: SubscriptionSpreadKey,
  show: (x: number) => string,
  bold = false,
) => withRange(r[k], r.spread?.[k], show, bold);
const repeatsLine = (results: SubscriptionRun['results']) => {
  const most = Math.max(...results.map((r) => r.repeats ?? 1));
  return most > 1
    ? [
        `Each path ${most} times, the paths taking turns run by run; a figure is the median, its lowest–highest in brackets; losses add up over the runs.`,
        '',
      ]
    : [];
};

function subscriptions(s: any): string {
  if (!s || s.error) return `Failed: ${s?.error ?? 'not run'}`;
  const runs = (s.runs as SubscriptionRun[]).map((run) =>
    [
      `### ${n(run.subs)} subscribers, ${run.rate} events/s for ${run.seconds} s (${n(run.subs * run.rate)} deliveries/s asked for)${run.remote ? ', selecting `cluster { id name }`: one supergraph fetch per event' : ''}`,
      '',
      ...repeatsLine(run.results),
      table(
        ['path', 'ready', 'delivered/s', 'lost', 'p50', 'p99', 'RSS', 'RSS per 1k subs'],
        run.results.map((r) => [
          label[r.path],
          `${n(r.ready)}/${n(r.subscribers)}`,
          spreadOf(r, 'events_per_s', (x) => n(x), true),
          // over every run: each counted subscription's deliveries and losses
          `${n(r.lost)} / ${n(r.delivered + r.lost)}`,
          spreadOf(r, 'p50_ms', (x) => `${n(x)} ms`),
          spreadOf(r, 'p99_ms', (x) => `${n(x)} ms`),
          spreadOf(r, 'rss_mb', (x) => `${n(x)} MB`),
          `${n(r.rss_per_1k_subs_mb, 1)} MB`,
        ]),
      ),
    ].join('\n'),
  );
  return [
    runLine(s.run),
    '',
    `One control plane process on NATS + Cassandra per path; graphql-ws subscriptions of one tenant on one function, 100 per`,
    `connection, selecting \`cursor state at message instance { id cluster { id } }\` (our gateway answers the cluster's key from the`,
    `event, as a planner answers an entity key without a fetch; the forwarding path resolves Instance in icms; one run selects`,
    `\`cluster { id name }\` to show ours with a supergraph fetch per event). Events are published to NATS at a fixed rate, each`,
    `carrying its publish time; a subscription counts once a probe event reached it, and every delivery is counted against what`,
    `was published. The load client runs in the benchmark process; the fair ceiling fans the same events out with ours' batching.`,
    '',
    ...runs.flatMap((r) => [r, '']),
    `Headline (${n(s.subscribers)} subscribers, ${s.rate_per_s}/s): ours ${n(s.ours_events_per_s)}/s vs forwarded ${n(s.hive_gateway_events_per_s)}/s = **${n(s.ratio_vs_hive_gateway, 1)}×** (target ≥ 5×: ${met(s.ratio_vs_hive_gateway >= 5)});`,
    `events lost by ours over all runs: ${n(s.lost_events)} (target 0: ${met(s.lost_events === 0)}); ours p99 ${n(s.ours_p99_ms)} ms (target < 50 ms at 1k: ${met(s.ours_p99_ms < 50)});`,
    `gateway memory per 1k subscriptions ${n(s.rss_per_1k_subs_mb, 1)} MB (from the largest run).`,
  ].join('\n');
}

function rollout(r: any): string {
  if (!r || r.error) return `Failed: ${r?.error ?? 'not run'}`;
  return [
    runLine(r.run),
    '',
    'Time from `updateGpuSpecification` to the revision `APPLIED`, instances over 10 simulated clusters (10 ms apply), in-process',
    'control plane on NATS + Cassandra.',
    '',
    table(
      ['instances', 'deploy (first revision APPLIED)', 'rollout'],
      r.detail.map((d: any) => [n(d.instances), `${n(d.deploy_s, 1)} s`, `**${n(d.rollout_s, 1)} s**`]),
    ),
    '',
    `Target: 1000-instance rollout under 10 s: ${met(r.instances_1000_s != null && r.instances_1000_s < 10)}.`,
  ].join('\n');
}

export function renderResults(out: Latest): string {
  const analysis = existsSync('bench/ANALYSIS.md') ? readFileSync('bench/ANALYSIS.md', 'utf8') : '';
  const peers = readFileSync('bench/peers/README.md', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .join('\n');
  const md = [
    '# Benchmark results',
    '',
    'Rendered from `results/latest.json` (`npm run bench -- --render`). The sections come from separate runs: each',
    'says which (date, commit, machine, Node, load average at its start, duration, command); a section not re-run keeps',
    'the run it came from. nats-server 2.15.2 and Cassandra 5.0.9 on the same machine; load from autocannon 9.0.0',
    '(queries) and graphql-ws 6 clients (subscriptions). Every section at once: `npm run bench`; some of them as the',
    'full run has them: `npm run bench -- --only subscriptions,rollout`; parts alone, with their own options:',
    '`npm run bench:queries`, `npm run bench:subscriptions [-- --sweep]`, `npm run bench:rollout`, `npm run bench:fleet`,',
    '`npm run bench:hardening`; `BENCH_PROFILE_DIR=<dir>` makes the processes under test write V8 CPU profiles.',
    '',
    '## Peers',
    '',
    peers,
    '',
    '## Queries',
    '',
    queries(out.queries),
    '',
    '## Status subscriptions',
    '',
    subscriptions(out.subscriptions),
    '',
    '### Saturation sweep',
    '',
    renderSweep(out.sweep as Parameters<typeof renderSweep>[0]),
    '',
    '## Rollout',
    '',
    rollout(out.rollout),
    '',
    ...(out.hardening ? ['## Hardening', '', hardening(out.hardening as unknown as HardeningSection), ''] : []),
    analysis,
  ].join('\n');
  // the fleet is measured on its own (npm run bench:fleet): its section goes wherever latest.json has it
  const fleet = out.fleet as unknown as FleetRun | undefined;
  return withChaosSection(fleet ? renderFleetSection(md, fleet) : md);
}

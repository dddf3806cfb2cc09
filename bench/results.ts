// The sections of bench/results/latest.json, in the fields the benchmark issue names (bench/provenance/latest.ts
// stores them, each with its run).
import type { QueryResult } from './queries/run.js';
import type { Result as SubscriptionResult } from './subscriptions/run.js';
import type { Repeated } from './subscriptions/repeats.js';
import type { RolloutResult } from './rollout/run.js';

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? Math.round((a / b) * 100) / 100 : null);

export function queriesSummary(rs: QueryResult[], o: { connections: number; seconds: number; rounds: number }) {
  const rps = (k: QueryResult['key']) => rs.find((r) => r.key === k)?.rps;
  return {
    ours_rps: rps('ours') ?? null,
    hive_rust_qp_rps: rps('hive_rust_qp') ?? null,
    hive_router_rps: rps('hive_router') ?? null,
    cosmo_router_rps: rps('cosmo_router') ?? null,
    apollo_gateway_rps: rps('apollo_gateway') ?? null,
    mercurius_rps: rps('mercurius') ?? null,
    ceiling_rps: rps('ceiling') ?? null,
    ours_p99_ms: rs.find((r) => r.key === 'ours')?.p99_ms ?? null,
    ratios: {
      ours_vs_hive_rust_qp: ratio(rps('ours'), rps('hive_rust_qp')),
      ours_vs_hive_router: ratio(rps('ours'), rps('hive_router')),
      ours_vs_cosmo_router: ratio(rps('ours'), rps('cosmo_router')),
      ours_vs_apollo_gateway: ratio(rps('ours'), rps('apollo_gateway')),
      ours_vs_mercurius: ratio(rps('ours'), rps('mercurius')),
    },
    ...o,
    detail: rs,
  };
}

export interface SubscriptionRun {
  subs: number;
  rate: number;
  seconds: number;
  remote?: boolean;
  /** each path's runs as one (repeated runs: medians and spread) */
  results: (SubscriptionResult & Repeated)[];
}

/** The headline is the 1k-subscriber run at the highest rate; every run is kept in `runs`. */
export function subscriptionsSummary(runs: SubscriptionRun[]) {
  const head = [...runs].filter((r) => r.subs === 1000 && !r.remote).sort((a, b) => b.rate - a.rate)[0] ?? runs[0];
  const by = (run: SubscriptionRun, p: SubscriptionResult['path']) => run.results.find((r) => r.path === p);
  const [ours, hive, ceiling] = [by(head, 'gateway'), by(head, 'forward'), by(head, 'fair_ceiling')];
  return {
    ours_events_per_s: ours?.events_per_s ?? null,
    hive_gateway_events_per_s: hive?.events_per_s ?? null,
    ceiling_events_per_s: ceiling?.events_per_s ?? null,
    ours_p99_ms: ours?.p99_ms ?? null,
    // every run of ours, not just the headline: must be 0
    lost_events: runs.reduce((n, run) => n + (by(run, 'gateway')?.lost ?? 0), 0),
    // from the largest run: at 1k subscribers the growth is within garbage-collection noise
    rss_per_1k_subs_mb: largest(runs)?.rss_per_1k_subs_mb ?? null,
    ratio_vs_hive_gateway: ratio(ours?.events_per_s, hive?.events_per_s),
    subscribers: head.subs,
    rate_per_s: head.rate,
    seconds: head.seconds,
    runs,
  };
}

const largest = (runs: SubscriptionRun[]) =>
  [...runs]
    .filter((r) => !r.remote)
    .sort((a, b) => b.subs - a.subs)[0]
    ?.results.find((r) => r.path === 'gateway');

export function rolloutSummary(rs: RolloutResult[]) {
  const by = (n: number) => rs.find((r) => r.instances === n)?.rollout_s ?? null;
  return { instances_100_s: by(100), instances_1000_s: by(1000), detail: rs };
}

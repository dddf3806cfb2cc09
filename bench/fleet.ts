// npm run bench:fleet [-- --sizes 10x1000,50x10000] [--single] [--append] [--submit-concurrency 8]
// [--control-plane processes|one]: the fleet simulation on the
// clustered services (`npm run services:up -- cluster`; --single: on the single-node ones instead).
// Writes bench/results/fleet.json and fleet.svg, merges a `fleet` key into results/latest.json and
// renders the fleet section of bench/RESULTS.md.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { readEnvFile } from '@nvcf/config';
import { runFleet, FLEET_DEFAULTS, type FleetEnv, type FleetResult, type FleetSize } from './fleet/run.js';
import { fleetSvg, renderFleetSection } from './fleet/report.js';
import { LATEST, machine } from './results.js';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const sizes: FleetSize[] = (arg('--sizes') ?? '10x1000,50x10000').split(',').map((s) => {
  const [clusters, instances] = s.split('x').map(Number);
  if (!clusters || !instances) throw new Error(`--sizes wants CLUSTERSxINSTANCES,… (got '${s}')`);
  return { clusters, instances };
});
const single = process.argv.includes('--single');
const submitConcurrency = Number(arg('--submit-concurrency') ?? FLEET_DEFAULTS.submitConcurrency);
if (!Number.isInteger(submitConcurrency) || submitConcurrency < 1)
  throw new Error(`--submit-concurrency wants a whole number ≥ 1 (got '${arg('--submit-concurrency')}')`);
const controlPlane = arg('--control-plane') ?? FLEET_DEFAULTS.controlPlane;
if (controlPlane !== 'processes' && controlPlane !== 'one')
  throw new Error(`--control-plane wants processes or one (got '${controlPlane}')`);
// the single-node set's own record: .services/env names whichever set `up` ran last
const env = (single
  ? { ...readEnvFile('.services/pids/nats.env'), ...readEnvFile('.services/pids/cassandra.env') }
  : readEnvFile('.services/cluster/env')) as unknown as FleetEnv;
if (!env.NATS_URL || !env.CASSANDRA_CONTACT_POINTS) {
  console.error(`bench:fleet: no services: run \`npm run services:up${single ? '' : ' -- cluster'}\` first`);
  process.exit(2);
}
const started = Date.now();
const services = single
  ? 'single-node NATS and Cassandra'
  : '3-node NATS cluster (streams R3) and 3-node Cassandra ring (RF 3)';
const fresh = (await runFleet(sizes, env, { submitConcurrency, controlPlane })).map((r) => ({ ...r, services }));
// --append: keep the other sizes of the previous run (bench/results/fleet.json), replacing the ones run now
const previous: FleetResult[] =
  process.argv.includes('--append') && existsSync('bench/results/fleet.json')
    ? (JSON.parse(readFileSync('bench/results/fleet.json', 'utf8')) as { results: FleetResult[] }).results
    : [];
const same = (a: FleetResult, b: FleetResult) =>
  a.clusters === b.clusters &&
  a.instances === b.instances &&
  a.services === b.services &&
  (a.control_plane ?? 'one') === (b.control_plane ?? 'one');
const results = [...previous.filter((p) => !fresh.some((r) => same(p, r))), ...fresh].sort(
  (a, b) => a.instances - b.instances || a.clusters - b.clusters,
);
console.table(
  results.map((r) => ({
    clusters: r.clusters,
    instances: r.instances,
    deploy_s: r.deploy_s,
    rollout_s: r.rollout_s,
    p99_ms: r.p99_ms,
    per_agent_mb: r.rss_per_agent_mb,
    per_1k_mb: r.rss_per_1k_instances_mb,
    events_per_s: r.status_events_per_s,
    raw_per_s: r.raw_status_events_per_s,
    ratio: r.ratio_vs_raw,
    lag_max_ms: r.reader_lag_max_ms && JSON.stringify(r.reader_lag_max_ms),
    lwt_per_event: r.lwt_per_event,
    mismatches: r.mismatches && JSON.stringify(r.mismatches),
  })),
);
const fleet = {
  date: new Date().toISOString(),
  machine: machine(),
  command: `npm run bench:fleet${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  services: [...new Set(results.map((r) => r.services))].join('; '),
  duration_s: Math.round((Date.now() - started) / 1000),
  results,
};
writeFileSync('bench/results/fleet.json', JSON.stringify(fleet, null, 2) + '\n');
writeFileSync('bench/results/fleet.svg', fleetSvg(results));
// only the fleet key: the other benchmarks' parts of latest.json stay as their runs left them
const latest = existsSync(LATEST) ? (JSON.parse(readFileSync(LATEST, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(LATEST, JSON.stringify({ ...latest, fleet }, null, 2) + '\n');
const md = readFileSync('bench/RESULTS.md', 'utf8');
writeFileSync('bench/RESULTS.md', renderFleetSection(md, fleet));
console.error(
  `bench:fleet: wrote bench/results/fleet.json, fleet.svg, the fleet key of ${LATEST} and bench/RESULTS.md`,
);
process.exit(0);

// npm run bench:fleet [-- --sizes 10x1000,50x10000] [--single] [--append] [--submit-concurrency 8] [--repeat 3]
// [--control-plane processes|one]: the fleet simulation on the
// clustered services (`npm run services:up -- cluster`; --single: on the single-node ones instead).
// Writes bench/results/fleet.json and fleet.svg, merges a `fleet` key into results/latest.json and
// renders the fleet section of bench/RESULTS.md. Every row carries the run that measured it: with --append
// the rows come from several commands. --repeat N: every size N times, the sizes in turn; a row is the median
// of its runs, with their range (bench/fleet/repeats.ts).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { readEnvFile } from '@nvcf/config';
// the module alone: @nvcf/test's index needs jest's globals
import { buildDist } from '@nvcf/test/build';
import { runFleet, FLEET_DEFAULTS, type FleetEnv, type FleetResult, type FleetSize } from './fleet/run.js';
import { combineRuns } from './fleet/repeats.js';
import { fleetSvg, renderFleetSection, type FleetRow, type FleetRun } from './fleet/report.js';
import { LATEST, mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
import { arg, positiveInt } from './cli/args.js';

const sizes: FleetSize[] = (arg('sizes') ?? '10x1000,50x10000').split(',').map((s) => {
  const [clusters, instances] = s.split('x').map(Number);
  if (!clusters || !instances) throw new Error(`--sizes wants CLUSTERSxINSTANCES,… (got '${s}')`);
  return { clusters, instances };
});
const single = process.argv.includes('--single');
const submitConcurrency = positiveInt('submit-concurrency', FLEET_DEFAULTS.submitConcurrency);
const repeat = positiveInt('repeat', 1);
const controlPlane = arg('control-plane') ?? FLEET_DEFAULTS.controlPlane;
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
const run = startRun();
const services = single
  ? 'single-node NATS and Cassandra'
  : '3-node NATS cluster (streams R3) and 3-node Cassandra ring (RF 3)';
// the services run from dist/ as the image runs them: built (incrementally) first
if (controlPlane === 'processes') console.error(`bench:fleet: npm run build took ${(await buildDist()) / 1000} s`);
// in turn rather than back to back, so a slow stretch of the machine does not fall on one size's runs only
const measured: FleetResult[][] = sizes.map(() => []);
for (let i = 0; i < repeat; i++) {
  const rows = await runFleet(sizes, env, { submitConcurrency, controlPlane });
  rows.forEach((r, j) => measured[j].push(r));
}
const thisRun = run.finish();
const fresh: FleetRow[] = measured.map((runs) => ({ ...combineRuns(runs), services, run: thisRun }));
// --append: keep the other sizes of the previous run (bench/results/fleet.json), replacing the ones run now
const previous: FleetRow[] =
  process.argv.includes('--append') && existsSync('bench/results/fleet.json')
    ? (JSON.parse(readFileSync('bench/results/fleet.json', 'utf8')) as FleetRun).results
    : [];
const same = (a: FleetRow, b: FleetRow) =>
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
    apart_max_ms: r.reader_window_max_ms,
    lwt_per_event: r.lwt_per_event,
    mismatches: r.mismatches && JSON.stringify(r.mismatches),
  })),
);
// the section's run is this command's; each row keeps its own (the rows kept by --append are older)
const fleet: FleetRun = {
  run: thisRun,
  services: [...new Set(results.map((r) => r.services))].join('; '),
  results,
};
writeFileSync('bench/results/fleet.json', JSON.stringify(fleet, null, 2) + '\n');
writeFileSync('bench/results/fleet.svg', fleetSvg(results));
// only the fleet section: the other benchmarks' sections of latest.json stay as their runs left them
mergeSections({ fleet: { ...fleet } });
const md = readFileSync('bench/RESULTS.md', 'utf8');
writeFileSync('bench/RESULTS.md', renderFleetSection(md, fleet));
console.error(
  `bench:fleet: wrote bench/results/fleet.json, fleet.svg, the fleet key of ${LATEST} and bench/RESULTS.md`,
);
process.exit(0);

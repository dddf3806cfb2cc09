import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createNatsBus } from '@nvcf/bus';
import { DisposalStack } from '@nvcf/lifecycle';
import { startTopology } from '@nvcf/local/topology';
// the test package's modules themselves: its entry also loads the jest-only helpers, and this runs outside jest too
import { buildDist } from '../src/build.js';
import { httpClient } from '../src/client.js';
import { deleteDurables } from '../src/durables.js';
import { waitRevision } from '../src/rollout.js';
import { statusLog } from '../src/status-log.js';
import { clusterEnv, clusterNodes, dropKeyspaces, migrateKeyspaces, topologyEnvOn } from '../cluster/system.js';
import { check } from './checker.js';
import { Faults, type FaultRecord } from './faults.js';
import { seeded, sleep } from './random.js';
import { sampleRss, type RssSeries } from './rss.js';
import { deploySpec } from './setup.js';
import { ResumingSubscriber } from './subscribers.js';
import { rollouts, type RolloutTally } from './workload.js';

export interface ChaosOptions {
  minutes: number;
  seed?: number;
  specs?: number;
  subscribers?: number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  run: {
    commit: string;
    command: string;
    started_at: string;
    duration_s: number;
    machine: string;
    node: string;
    seed: number;
  };
  minutes: number;
  faults: { injected: number; by_kind: Record<string, number>; overlapping: number; records: FaultRecord[] };
  rollouts: RolloutTally;
  subscribers: { count: number; ws: number; sse: number; resumes: number; errors: number };
  events_in_stream: number;
  events_checked: number;
  violations: string[];
  rss: RssSeries[];
}

const SECRET = randomBytes(24).toString('hex');

/**
 * A chaos run on the clustered services (`npm run test:chaos`, and 3 minutes of it in test:cluster):
 * the production topology from built JavaScript, rollouts and rollbacks on several specifications,
 * resuming subscribers over both transports, and faults one at a time in the first half, two
 * overlapping in the second; then the invariants, checked from the stream and every store.
 */
export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const seed = o.seed ?? randomInt(2 ** 31);
  const random = seeded(seed);
  const log = o.log ?? ((l: string) => console.log(`[chaos] ${l}`));
  const started = Date.now();
  // what runs is what was built at the start: a commit made while the run goes on is not it
  const commit = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=7'], { encoding: 'utf8' }).trim();
  const env = clusterEnv();
  const nodes = clusterNodes();
  const suffix = `_chaos${randomBytes(3).toString('hex')}`;
  const stack = new DisposalStack();
  try {
    log(`seed ${seed}, ${o.minutes} min, deployment ${suffix}`);
    await buildDist();
    await migrateKeyspaces(env, suffix);
    stack.defer(() => dropKeyspaces(env, suffix).catch(() => {}));
    stack.defer(() => deleteDurables(env.natsUrl, suffix.slice(1)).catch(() => {}));
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-chaos-'));
    stack.defer(() => rmSync(stateDir, { recursive: true, force: true }));
    const topology = await startTopology({
      mode: 'dist',
      stateDir,
      clusterSuffix: suffix.replace('_', '-'),
      deploymentSuffix: suffix,
      env: {
        ...topologyEnvOn(env, suffix, SECRET),
        // quick rollouts, yet long enough for a rollback to land in the middle of one
        SIM_START_DELAY_MS: '200',
        SIM_UPDATE_DELAY_MS: '1000',
      },
      gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: 'dev-token-a=nca-a' },
    });
    stack.defer(() => topology.dispose());
    const bus = stack.use(
      await createNatsBus({ servers: env.natsUrl, name: `chaos${suffix}`, streamReplicas: env.streamReplicas }),
    );
    const gatewayUrls = () => topology.gateways.map((g) => g.url);
    const client = () => httpClient(`${random.pick(gatewayUrls())}/graphql`, 'dev-token-a');

    const truth = await statusLog(bus, 'nca-a');
    stack.defer(() => truth.stop());
    const specIds: string[] = [];
    for (let i = 0; i < (o.specs ?? 4); i++)
      specIds.push(await deploySpec(client, `chaos-${suffix.slice(6)}-${i}`, 2, log));
    for (const id of specIds) await waitRevision(client(), id, 'APPLIED', 120_000);
    log(`${specIds.length} specifications deployed, ${topology.processes().length} processes`);

    const count = o.subscribers ?? 200;
    const subscribers = Array.from(
      { length: count },
      (_, i) =>
        new ResumingSubscriber(i, i % 2 ? 'sse' : 'ws', specIds[i % specIds.length], gatewayUrls, SECRET, random),
    );
    for (const s of subscribers) s.start();
    stack.defer(() => subscribers.forEach((s) => s.stop()));
    const resumer = setInterval(() => random.pick(subscribers).resume(), Math.max(50, 20_000 / count));
    stack.defer(() => clearInterval(resumer));

    const rss = sampleRss(() => topology.processes());
    stack.defer(() => void rss.stop());
    let stopped = false;
    const tally: RolloutTally = { updates: 0, rollbacks: 0, rollbacksTooLate: 0, ended: {}, refused: 0 };
    const work = Promise.all(specIds.map((id) => rollouts(id, client, random, () => stopped, tally)));

    const faults = new Faults(topology, nodes, random);
    // the minutes count from here: the build, the migrations and the first deployments are not chaos
    const from = Date.now();
    const end = from + o.minutes * 60_000;
    const half = from + o.minutes * 30_000;
    let overlapping = 0;
    while (Date.now() < end - 10_000) {
      await sleep(random.between(2000, 6000));
      if (Date.now() < half) {
        const f = await faults.one();
        if (f) log(`${f.kind} ${f.target}: held ${f.held_ms} ms, recovered in ${f.recovered_ms} ms`);
      } else {
        const both = await Promise.all([faults.one(), sleep(random.between(500, 2500)).then(() => faults.one())]);
        if (both.every(Boolean)) overlapping++;
        log(`overlapping: ${both.map((f) => f && `${f.kind} ${f.target}`).join(' + ')}`);
      }
    }
    stopped = true;
    clearInterval(resumer);
    await work;
    log(`faults over; ${tally.updates} updates, ${tally.rollbacks} rollbacks; checking`);

    const verdict = await check({
      client,
      specIds,
      truth: truth.events,
      subscribers,
      bus,
      durableTags: [suffix.slice(1), ...topology.clusters],
    });
    const byKind: Record<string, number> = {};
    for (const r of faults.records) byKind[`${r.group} ${r.kind}`] = (byKind[`${r.group} ${r.kind}`] ?? 0) + 1;
    return {
      run: {
        commit,
        command: `npm run test:chaos -- --minutes ${o.minutes} --seed ${seed}`,
        started_at: new Date(started).toISOString(),
        duration_s: Math.round((Date.now() - started) / 1000),
        machine: `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
        node: process.version,
        seed,
      },
      minutes: o.minutes,
      faults: { injected: faults.records.length, by_kind: byKind, overlapping, records: faults.records },
      rollouts: tally,
      subscribers: {
        count,
        ws: subscribers.filter((s) => s.transport === 'ws').length,
        sse: subscribers.filter((s) => s.transport === 'sse').length,
        resumes: subscribers.reduce((n, s) => n + s.resumes, 0),
        errors: subscribers.reduce((n, s) => n + s.errors.length, 0),
      },
      ...verdict,
      rss: rss.stop(),
    };
  } finally {
    await stack.disposeAsync();
  }
}

// Fleet simulation: N simulated clusters, their agents in a few OS processes, M instances deployed,
// then one revision rolled out to all of them while subscribers watch. Per fleet size: time to
// APPLIED, messages per second on each stream, p99 from an agent's report to a subscriber's event,
// memory per agent and per 1k instances; how fast the slowest status reader applied the rollout's
// events against a raw NATS → Cassandra ceiling (bench/fleet/raw.ts), the readers' lag, LWTs per
// event; then the stream read back against every store (bench/fleet/check.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { print, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { parseReplication } from '@nvcf/cassandra';
import { Streams } from '@nvcf/contracts';
// the module alone: @nvcf/test's index needs jest's globals
import { deleteDurables } from '@nvcf/test/durables';
import { gql, percentile, startProcess, type Started } from '../lib.js';
import { checkStores, streamNewest } from './check.js';
import { burstEvents, publishBurst } from './burst.js';
import { ackFloorsReached } from './acks.js';
import { readerDurables, watchReaders, type ReaderWatch } from './metrics.js';
import { READERS, type PerReader } from './readers.js';
import { runRawCeiling } from './raw.js';

export interface FleetSize {
  clusters: number;
  instances: number;
}
export interface FleetResult extends FleetSize {
  /** which services it ran on (set by bench/fleet.ts) */
  services?: string;
  specs: number;
  agent_processes: number;
  deploy_s: number;
  /** the first update submitted → every revision APPLIED */
  rollout_s: number;
  /** the first update submitted → the last update's answer */
  submit_s?: number;
  /** updates in flight at once; rows without it submitted one after another */
  submit_concurrency?: number;
  /** how the control plane ran; rows without it ran in one process */
  control_plane?: ControlPlaneShape;
  /** messages stored per second of the rollout, per stream */
  msgs_per_s: Record<string, number>;
  status_events: number;
  subscribers: number;
  delivered: number;
  expected: number;
  p50_ms: number;
  p99_ms: number;
  agent_rss_mb: number;
  rss_per_agent_mb: number;
  control_plane_rss_mb: number;
  control_plane_rss_idle_mb: number;
  rss_per_1k_instances_mb: number;
  /**
   * status events applied per second by the slowest of the three status readers, on the burst of
   * bench/fleet/burst.ts (the raw ceiling's events and publisher, on the real stream): first publish to
   * the reader's last acknowledgement
   */
  status_events_per_s: number;
  /** the same for each reader */
  reader_events_per_s: PerReader<number>;
  /** during the rollout itself (first status event to the reader's last): bounded by what the agents publish */
  rollout_events_per_s: number;
  rollout_reader_events_per_s: PerReader<number>;
  /** largest lag (publish to applied) each reader showed during the rollout; null: not exposed by the control plane */
  reader_lag_max_ms: PerReader<number | null>;
  /**
   * During the rollout, the largest time between the first and the last of the three readers having
   * applied the same number of its events (sampled every 250 ms): how long services disagree
   */
  reader_window_max_ms?: number | null;
  /** Cassandra lightweight transactions executed during the rollout ÷ status events; null: not exposed */
  lwt_per_event: number | null;
  /** the raw ceiling (bench/fleet/raw.ts): the same events straight from NATS to Cassandra, slowest of three readers */
  raw_status_events_per_s: number;
  /** status_events_per_s ÷ raw_status_events_per_s */
  ratio_vs_raw: number;
  /** instances whose newest event on the stream a reader's store does not hold (expected 0) */
  mismatches: PerReader<number>;
}
export interface FleetEnv {
  NATS_URL: string;
  CASSANDRA_CONTACT_POINTS: string;
  CASSANDRA_LOCAL_DC?: string;
  NATS_STREAM_REPLICAS?: string;
  CASSANDRA_REPLICATION?: string;
}

/** One GPU specification holds at most this many instances; bigger fleets deploy several. */
export const INSTANCES_PER_SPEC = 250;
const AGENT_PROCESSES = 4;
// one deployment per 2 specifications (500 instances): its launch, an internal call to ICMS, must finish within
// the call's 15 s on a loaded 3-node ring
const SPECS_PER_DEPLOY = 2;
const POLL_MS = 500;

const Subscription = parse(
  'subscription($s: ID!) { instanceStatusChanged(gpuSpecificationId: $s) { at state instance { id } } }',
);
type StatusData = { instanceStatusChanged: { at: string; state: string; instance: { id: string } } };

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`fleet benchmark: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Waits until none of the durables has a message pending or unacked (the rollout's window starts
 * clean); answers the max ack pending each runs with.
 */
async function readersIdle(natsUrl: string, durables: PerReader<string>, timeoutMs: number) {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fleet-bench-readers' });
  try {
    const jsm = await jetstreamManager(nc);
    const idle = async () => {
      for (const d of Object.values(durables)) {
        const ci = await jsm.consumers.info(Streams.status.name, d);
        if (ci.num_pending || ci.num_ack_pending) return false;
      }
      return true;
    };
    await waitFor(idle, timeoutMs, 'the status readers to finish the deploy');
    // what our readers run with: the raw ceiling's durables take the same
    const maxAckPending: Partial<PerReader<number>> = {};
    for (const r of READERS)
      maxAckPending[r] = (await jsm.consumers.info(Streams.status.name, durables[r])).config.max_ack_pending;
    return maxAckPending;
  } finally {
    await nc.close();
  }
}

/** When the status stream stored message `seq` (the rollout's first status event). */
async function storedAt(natsUrl: string, seq: number): Promise<number> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fleet-bench-streams' });
  try {
    const m = await (await jetstreamManager(nc)).streams.getMessage(Streams.status.name, { seq });
    if (!m) throw new Error(`fleet benchmark: status message ${seq} is gone`);
    return m.time.getTime();
  } finally {
    await nc.close();
  }
}

async function streamSeqs(natsUrl: string): Promise<Record<string, number>> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'fleet-bench-streams' });
  try {
    const jsm = await jetstreamManager(nc);
    const out: Record<string, number> = {};
    for (const s of [Streams.create, Streams.update, Streams.status])
      out[s.name] = (await jsm.streams.info(s.name)).state.last_seq;
    return out;
  } finally {
    await nc.close();
  }
}

/**
 * A subscriber per spec; each event's latency is its arrival minus the agent's report time (`at`).
 * A connection holds at most 100 subscriptions (the gateway's limit): one client per 100 specs.
 */
function subscribe(wsUrl: string, specIds: string[], latencies: number[], counts: Map<string, number>) {
  const clients: ReturnType<typeof createClient>[] = [];
  let ready = 0;
  for (let i = 0; i < specIds.length; i += 100) {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: 'Bearer dev-token-a' },
      retryAttempts: 0,
    });
    clients.push(client);
    for (const s of specIds.slice(i, i + 100)) {
      client.subscribe<StatusData>(
        { query: print(Subscription), variables: { s } },
        {
          next: (v) => {
            const e = v.data?.instanceStatusChanged;
            if (!e) return;
            latencies.push(Date.now() - Date.parse(e.at));
            const key = `${e.instance.id}:${e.state}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          },
          error: (err) => console.error('fleet: subscription error', err),
          complete: () => {},
        },
      );
      ready++;
    }
  }
  return { ready, dispose: () => clients.forEach((c) => void c.dispose()) };
}

/**
 * FLEET_METRICS_DIR: every control-plane process's /metrics as it stands, one file each, for
 * reading where a row's time went (statement counts and latencies per table, handler timings).
 */
async function dumpMetrics(urls: string[], label: string) {
  const dir = process.env.FLEET_METRICS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await Promise.all(
    urls.map(async (u, i) =>
      writeFileSync(
        path.join(dir, `${label}-${i}-${new URL(u).port}.prom`),
        await (await fetch(`${u}/metrics`)).text(),
      ),
    ),
  );
}

/** Durables of the agents of earlier runs (each cluster's three): gone with their clusters. */
// every stream an agent reads (its task work too): left behind, they add up to the server's limit on consumers
const deleteFleetDurables = (natsUrl: string) => deleteDurables(natsUrl, 'fleet-');

export interface FleetOptions {
  /** updates in flight at once */
  submitConcurrency: number;
  /** `processes`: each service its own OS process, as deployed; `one`: all in one, as `npm start` */
  controlPlane: ControlPlaneShape;
}
export type ControlPlaneShape = 'processes' | 'one';
export const FLEET_DEFAULTS: FleetOptions = { submitConcurrency: 8, controlPlane: 'one' };

async function run(size: FleetSize, env: FleetEnv, o: FleetOptions): Promise<FleetResult> {
  const submitConcurrency = o.submitConcurrency;
  // a fresh NATS has no streams yet (the control plane creates them): nothing to delete then
  await deleteFleetDurables(env.NATS_URL).catch((err: Error) => {
    if (err.name !== 'StreamNotFoundError') throw err;
  });
  const tag = Math.random().toString(36).slice(2, 7);
  const ids = Array.from({ length: size.clusters }, (_, i) => `fleet-${tag}-${i}`);
  const procs = Math.min(AGENT_PROCESSES, size.clusters);
  const started: Started[] = [];
  let suffix: string | undefined;
  let readers: ReaderWatch | undefined;
  const common: Record<string, string> = { ...(env as unknown as Record<string, string>), SIM_UPDATE_DELAY_MS: '10' };
  try {
    const cp = await startProcess(
      'bench/fleet/control-plane.ts',
      { ...common, FLEET_CLUSTER_IDS: ids.join(','), FLEET_CONTROL_PLANE: o.controlPlane },
      /ready (\S+) (\S+) (\S+) (\S+)/,
    );
    started.push(cp);
    const [, url, wsUrl, metricsList] = cp.match as unknown as [string, string, string, string];
    const metricsUrls = metricsList.split(',');
    suffix = cp.match[4];
    const durables = readerDurables(suffix);
    for (let p = 0; p < procs; p++) {
      const mine = ids.filter((_, i) => i % procs === p);
      started.push(
        await startProcess('bench/fleet/agents.ts', { ...common, FLEET_CLUSTERS: mine.join(',') }, /agents ready/),
      );
    }
    const agentRss = () => started.slice(1).reduce((n, s) => n + s.rssMb(), 0);
    const idleRss = cp.rssMb();
    const v = (await gql(
      url,
      'mutation { createFunction(input: { name: "fleet", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id } }',
    )) as { createFunction: { id: string } };
    const specCount = Math.ceil(size.instances / INSTANCES_PER_SPEC);
    const per = Math.ceil(size.instances / specCount);
    const specInputs = Array.from({ length: specCount }, (_, i) => Math.min(per, size.instances - i * per));
    const deployFrom = await streamSeqs(env.NATS_URL);
    const t0 = Date.now();
    const specIds: string[] = [];
    for (let i = 0; i < specInputs.length; i += SPECS_PER_DEPLOY) {
      const chunk = specInputs
        .slice(i, i + SPECS_PER_DEPLOY)
        .map(
          (n) =>
            `{ gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: ${n}, maxInstances: ${n}, configuration: { model: "v1" } }`,
        );
      // a version is deployed once: a further chunk needs a version of its own
      const version =
        i === 0
          ? v.createFunction.id
          : (
              (await gql(
                url,
                `mutation { createFunction(input: { name: "fleet-${tag}-${i}", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id } }`,
              )) as { createFunction: { id: string } }
            ).createFunction.id;
      const d = (await gql(
        url,
        `mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: { gpuSpecifications: [${chunk.join(', ')}] }) { gpuSpecifications { id } } }`,
        { v: version },
      )) as { deployFunctionVersion: { gpuSpecifications: { id: string }[] } };
      // the answer lists the deployment's specifications: keep each once
      for (const { id } of d.deployFunctionVersion.gpuSpecifications) if (!specIds.includes(id)) specIds.push(id);
    }
    // one request per 25 specifications (the gateway allows 30 aliases); a failed poll is retried
    const allApplied = async () => {
      let done = true;
      for (let i = 0; i < specIds.length; i += 25) {
        const chunk = specIds.slice(i, i + 25);
        const query = `{ ${chunk.map((id, j) => `s${j}: gpuSpecification(id: "${id}") { latestRevision { status } }`).join(' ')} }`;
        let data: Record<string, { latestRevision: { status: string } }>;
        try {
          data = (await gql(url, query)) as typeof data;
        } catch (err) {
          console.error(`fleet: poll failed, retrying: ${(err as Error).message.slice(0, 200)}`);
          return false;
        }
        const statuses = Object.values(data).map((s) => s.latestRevision.status);
        if (statuses.includes('FAILED')) throw new Error('fleet benchmark: a revision FAILED');
        if (!statuses.every((s) => s === 'APPLIED')) done = false;
      }
      return done;
    };
    await waitFor(allApplied, 3_600_000, `${size.instances} instances deployed`);
    const deployS = (Date.now() - t0) / 1000;
    console.error(`fleet: ${size.clusters} clusters, ${size.instances} instances deployed in ${deployS.toFixed(1)} s`);

    const latencies: number[] = [];
    const counts = new Map<string, number>();
    const subs = subscribe(wsUrl, specIds, latencies, counts);
    // the subscriptions are live once a no-op round trip has passed through the gateway after them
    await new Promise((r) => setTimeout(r, 2000));
    const maxAckPending = await readersIdle(env.NATS_URL, durables, 600_000);
    readers = await watchReaders(metricsUrls, durables);
    const before = await streamSeqs(env.NATS_URL);
    const t1 = Date.now();
    const submits: number[] = [];
    // a fleet operator's script submits its updates side by side (as `xargs -P` would), not one after another
    const queue = [...specIds];
    const submitter = async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        const ts = Date.now();
        await gql(
          url,
          'mutation($s: ID!) { updateGpuSpecification(id: $s, input: { revision: { configuration: { model: "v2" } } }) { id } }',
          { s },
        );
        submits.push(Date.now() - ts);
      }
    };
    await Promise.all(Array.from({ length: Math.min(submitConcurrency, specIds.length) }, submitter));
    const submitS = (Date.now() - t1) / 1000;
    console.error(
      `fleet: ${specIds.length} updates submitted in ${submitS.toFixed(1)} s (p50 ${percentile(submits, 50)} ms, max ${Math.max(...submits)} ms)`,
    );
    await waitFor(allApplied, 3_600_000, `the revision APPLIED on ${size.instances} instances`);
    const rolloutS = (Date.now() - t1) / 1000;
    const after = await streamSeqs(env.NATS_URL);
    const statusEvents = (after[Streams.status.name] ?? 0) - (before[Streams.status.name] ?? 0);
    // APPLIED is nvcf's view: the other readers may still be applying the rollout's last events
    const caughtUp = await readers.until(statusEvents, 600_000);
    await dumpMetrics(metricsUrls, `rollout-${size.clusters}x${size.instances}`);
    const lagMax = readers.lagMaxMs();
    const windowMax = readers.windowMaxMs();
    const base = readers.base;
    await readers.stop();
    const firstEvent = await storedAt(env.NATS_URL, (before[Streams.status.name] ?? 0) + 1);
    const readerRates = Object.fromEntries(
      READERS.map((r) => {
        const done = caughtUp.doneAt[r] ?? caughtUp.end.at;
        if (caughtUp.doneAt[r] === null) console.error(`fleet: the ${r} reader did not apply every status event`);
        const applied = caughtUp.end.acked[r] - base.acked[r];
        return [r, Math.round(applied / (Math.max(1, done - firstEvent) / 1000))];
      }),
    ) as PerReader<number>;
    const lwt = caughtUp.end.lwt === null ? null : (caughtUp.end.lwt - (base.lwt ?? 0)) / Math.max(1, statusEvents);
    // each instance reports UPDATING then ACTIVE: wait for both to reach the subscribers
    const expected = size.instances * 2;
    const end = Date.now() + 60_000;
    while (latencies.length < expected && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    const delivered = latencies.length;
    const controlRss = cp.rssMb();
    const agentsRss = agentRss();
    subs.dispose();
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    if (duplicates) console.error(`fleet: ${duplicates} transitions delivered more than once`);
    const msgs = Object.fromEntries(
      Object.entries(after).map(([k, v2]) => [k, Math.round((v2 - (before[k] ?? 0)) / rolloutS)]),
    );
    // the readers' capacity: the ceiling's burst, on the real stream, agents stopped as the ceiling has them
    for (const s of started.splice(1).reverse()) await s.stop();
    const afterRollout = await streamSeqs(env.NATS_URL);
    const newest = await streamNewest({
      natsUrl: env.NATS_URL,
      fromSeq: deployFrom[Streams.status.name] ?? 0,
      toSeq: afterRollout[Streams.status.name] ?? 0,
      specIds,
    });
    const burst = burstEvents(newest.values());
    // nothing else publishes status events now: the burst's last sequence is known before it starts
    const burstLast = (afterRollout[Streams.status.name] ?? 0) + burst.length * 2;
    const burstDone = ackFloorsReached(env.NATS_URL, durables, burstLast, { timeoutMs: 600_000 });
    const burstFrom = await publishBurst(env.NATS_URL, burst);
    const doneAt = await burstDone;
    const ingest = Object.fromEntries(
      READERS.map((r) => {
        if (doneAt[r] === null) console.error(`fleet: the ${r} reader did not apply the burst`);
        return [r, Math.round((burst.length * 2) / (Math.max(1, (doneAt[r] ?? Date.now()) - burstFrom) / 1000))];
      }),
    ) as PerReader<number>;
    console.error(`fleet: readers' burst of ${burst.length * 2} events: ${JSON.stringify(ingest)} events/s`);
    const afterBurst = await streamSeqs(env.NATS_URL);
    const check = await checkStores({
      natsUrl: env.NATS_URL,
      contactPoints: env.CASSANDRA_CONTACT_POINTS.split(','),
      localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
      suffix,
      fromSeq: deployFrom[Streams.status.name] ?? 0,
      toSeq: afterBurst[Streams.status.name] ?? 0,
      specIds,
    });
    console.error(
      `fleet: check of ${check.instances} instances, stream against stores: mismatches ${JSON.stringify(check.mismatches)}`,
    );
    // the ceiling gets the machine to itself: the fleet's processes are stopped first
    for (const s of started.splice(0).reverse()) await s.stop();
    const raw = await runRawCeiling({
      natsUrl: env.NATS_URL,
      contactPoints: env.CASSANDRA_CONTACT_POINTS.split(','),
      localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
      streamReplicas: Number(env.NATS_STREAM_REPLICAS ?? '1'),
      replication: env.CASSANDRA_REPLICATION ? parseReplication(env.CASSANDRA_REPLICATION) : undefined,
      clusters: size.clusters,
      instances: size.instances,
      maxAckPending,
    });
    const slowest = Math.min(...Object.values(ingest));
    const result: FleetResult = {
      ...size,
      specs: specIds.length,
      agent_processes: procs,
      deploy_s: Math.round(deployS * 10) / 10,
      rollout_s: Math.round(rolloutS * 10) / 10,
      submit_s: Math.round(submitS * 10) / 10,
      submit_concurrency: Math.min(submitConcurrency, specIds.length),
      control_plane: o.controlPlane,
      msgs_per_s: msgs,
      status_events: statusEvents,
      subscribers: subs.ready,
      delivered,
      expected,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      agent_rss_mb: Math.round(agentsRss),
      rss_per_agent_mb: Math.round((agentsRss / size.clusters) * 10) / 10,
      control_plane_rss_mb: Math.round(controlRss),
      control_plane_rss_idle_mb: Math.round(idleRss),
      rss_per_1k_instances_mb: Math.round(((controlRss - idleRss) / (size.instances / 1000)) * 10) / 10,
      status_events_per_s: slowest,
      reader_events_per_s: ingest,
      rollout_events_per_s: Math.min(...Object.values(readerRates)),
      rollout_reader_events_per_s: readerRates,
      reader_lag_max_ms: lagMax,
      reader_window_max_ms: windowMax,
      lwt_per_event: lwt === null ? null : Math.round(lwt * 100) / 100,
      raw_status_events_per_s: raw.events_per_s,
      ratio_vs_raw: Math.round((slowest / raw.events_per_s) * 100) / 100,
      mismatches: check.mismatches,
    };
    console.error(`fleet: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await readers?.stop();
    for (const s of started.reverse()) await s.stop();
    await deleteFleetDurables(env.NATS_URL).catch(() => {});
    // the control plane's own durables (its suffix): each run makes new ones
    if (suffix) await deleteDurables(env.NATS_URL, suffix, [Streams.status, Streams.cluster]).catch(() => {});
  }
}

export async function runFleet(sizes: FleetSize[], env: FleetEnv, o = FLEET_DEFAULTS): Promise<FleetResult[]> {
  const out: FleetResult[] = [];
  for (const s of sizes) out.push(await run(s, env, o));
  return out;
}

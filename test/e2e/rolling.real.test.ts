import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Streams, durableName } from '@nvcf/contracts';
import { startTopology, startBalancer, type Topology, type Balancer, type RunMode } from '@nvcf/local/topology';
import { startProbe, type ProbeSummary } from '@nvcf/ops';
import { InstanceStatusChangedDocument } from '@nvcf/client';
import {
  describeReal,
  realEnv,
  topologyEnv,
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  resumingSubscription,
  buildDist,
} from '@nvcf/test';
import { waitUntil } from '@nvcf/testing';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

const ICMS_OUTAGE_MS = 180_000;
/** Only nvcf's fields: what can be read while ICMS is away. */
const LatestRevisionDocument = parse(
  'query LatestRevision($id: ID!) { gpuSpecification(id: $id) { latestRevision { id status deadline } } }',
) as TypedDocumentNode<
  { gpuSpecification: { latestRevision: { id: string; status: string; deadline: string | null } | null } | null },
  { id: string }
>;

// production runs the built JavaScript; NVCF_TOPOLOGY_MODE=source runs the same processes through tsx
const mode: RunMode = process.env.NVCF_TOPOLOGY_MODE === 'source' ? 'source' : 'dist';

type Sub = ReturnType<
  typeof resumingSubscription<
    { instanceStatusChanged: { cursor: string; state: string; instance: { id: string } } },
    Record<string, unknown>
  >
>;

/** Every instance's transitions as one subscriber saw them, and whether any cursor came twice. */
const seen = (sub: Sub, instanceIds: string[]) => ({
  transitions: Object.fromEntries(
    instanceIds.map((id) => [
      id,
      sub.events.filter((e) => e.instanceStatusChanged.instance.id === id).map((e) => e.instanceStatusChanged.state),
    ]),
  ),
  duplicates: sub.events.length - new Set(sub.events.map((e) => e.instanceStatusChanged.cursor)).size,
});

const rss = async (t: Topology) =>
  Object.fromEntries(
    await Promise.all(
      t.processes().map(async (p) => {
        const text = await (await fetch(`${p.metricsUrl}/metrics`)).text();
        const line = text.split('\n').find((l) => /^nvcf_\w+_process_resident_memory_bytes /.test(l));
        return [p.name, line ? Math.round(Number(line.split(' ').at(-1)) / 1e6) : null] as const;
      }),
    ),
  );

describeReal('the production topology, from the built output', () => {
  const suffix = `_roll${randomBytes(3).toString('hex')}`;
  let topology: Topology;
  let lb: Balancer;
  let stateDir: string;
  const token = 'dev-token-a';
  const client = () => httpClient(`${lb.url}/graphql`, token);

  beforeAll(async () => {
    if (mode === 'dist') await buildDist();
    const shared = await topologyEnv(suffix);
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-topology-'));
    topology = await startTopology({
      mode,
      stateDir,
      clusterSuffix: suffix.replace('_', '-'),
      deploymentSuffix: suffix,
      env: {
        ...shared,
        SIM_START_DELAY_MS: '200',
        SIM_UPDATE_DELAY_MS: '200',
        DRAIN_GRACE_MS: '10000',
        REVISION_DEADLINE_MS: '120000',
      },
      gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: 'dev-token-a=nca-a,dev-token-b=nca-b' },
    });
    // clients reach the gateways the way a Service would send them: only to ready replicas
    lb = await startBalancer({ backends: topology.gateways.map((g) => g.url), checkMs: 100 });
  }, 240_000);
  afterAll(async () => {
    await lb?.dispose();
    await topology?.dispose();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  async function nothingPending() {
    const nc = await connect({ servers: realEnv().natsUrl, name: 'rolling-test' });
    try {
      const jsm = await jetstreamManager(nc);
      for (const stream of [Streams.create.name, Streams.update.name, Streams.terminate.name]) {
        for (const cluster of topology.clusters) {
          const ci = await jsm.consumers.info(stream, durableName(stream, cluster));
          expect([stream, cluster, ci.num_pending + ci.num_ack_pending]).toEqual([stream, cluster, 0]);
        }
      }
    } finally {
      await nc.close();
    }
  }

  it('a rolling replacement of every process drops no request and delivers every transition exactly once', async () => {
    const a = client();
    const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
    const idle = await rss(topology);
    const probe = startProbe({ url: `${lb.url}/graphql`, token, intervalMs: 50, functionId: d.functionId });
    const subs = Array.from(
      { length: 3 },
      () =>
        resumingSubscription([lb.url.replace('http', 'ws') + '/graphql'], token, InstanceStatusChangedDocument, {
          gpuSpecificationId: d.specId,
        }) as unknown as Sub,
    );
    let summary: ProbeSummary | undefined;
    const exits: Record<string, number> = {};
    try {
      await waitUntil(() => probe.summary().requests > 20, { what: 'the probe running' });
      // long enough per instance that the rollout spans several replacements
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 4000 } })).updateGpuSpecification
        .latestRevision!;
      await waitUntil(() => subs.every((s) => s.events.some((e) => e.instanceStatusChanged.state === 'UPDATING')), {
        what: 'the rollout under way',
        timeoutMs: 30_000,
      });
      const underLoad = await rss(topology);
      const order = [
        'icms',
        'nvca-status',
        'nvct',
        'nvcf-1',
        'nvcf-2',
        ...topology.clusters.map((c) => `agent-${c}`),
        'gateway-1',
        'gateway-2',
      ];
      for (const name of order) {
        const { exit } = await topology.replace(name, (next, old) => {
          if (next.kind === 'gateway')
            lb.setBackends([...topology.gateways.filter((g) => g !== old).map((g) => g.url), next.url]);
        });
        expect([name, exit.code]).toEqual([name, 0]);
        exits[name] = exit.ms;
      }
      const s = await waitRevision(a, d.specId, 'APPLIED', 120_000);
      expect(s.latestRevision!.id).toBe(rev.id);
      for (const sub of subs) {
        await waitUntil(
          () => d.instanceIds.every((id) => seen(sub, d.instanceIds).transitions[id].includes('ACTIVE')),
          { what: 'every instance ACTIVE again for each subscriber', timeoutMs: 60_000 },
        ).catch((err: Error) => {
          throw new Error(
            `${err.message}: saw ${JSON.stringify(seen(sub, d.instanceIds))}, reconnects ${sub.reconnects()}, closes ${JSON.stringify(sub.closes)}, errors ${JSON.stringify(sub.errors).slice(0, 500)}`,
          );
        });
      }
      await waitUntil(() => probe.summary().requests > 0 && probe.summary().events >= d.instanceIds.length * 2, {
        what: 'the probe saw the rollout',
      });
      summary = await probe.stop();
      for (const sub of subs) {
        const v = seen(sub, d.instanceIds);
        for (const id of d.instanceIds) expect([id, v.transitions[id]]).toEqual([id, ['UPDATING', 'ACTIVE']]);
        expect(v.duplicates).toBe(0);
      }
      expect({
        failed: summary.failed,
        gaps: summary.gaps,
        duplicates: summary.duplicates,
        failures: summary.failures.slice(0, 5),
      }).toEqual({ failed: 0, gaps: 0, duplicates: 0, failures: [] });
      await nothingPending();
      console.log(
        JSON.stringify({
          rolling: {
            probe: {
              requests: summary.requests,
              failed: summary.failed,
              p50: summary.latencyMs.p50,
              p99: summary.latencyMs.p99,
              events: summary.events,
              reconnects: summary.reconnects,
              gaps: summary.gaps,
              duplicates: summary.duplicates,
            },
            sigtermToExitMs: exits,
            rssMb: { idle, underLoad },
          },
        }),
      );
    } finally {
      if (!summary) await probe.stop();
      for (const sub of subs) sub.dispose();
    }
  }, 300_000);

  it('a gateway killed with SIGKILL: subscribers resume on the other replica without a gap; only requests in flight fail', async () => {
    const a = client();
    const d = await deployedHelm(a, { minInstances: 2, maxInstances: 2 });
    const probe = startProbe({ url: `${lb.url}/graphql`, token, intervalMs: 50, functionId: d.functionId });
    const subs = Array.from(
      { length: 2 },
      () =>
        resumingSubscription([lb.url.replace('http', 'ws') + '/graphql'], token, InstanceStatusChangedDocument, {
          gpuSpecificationId: d.specId,
        }) as unknown as Sub,
    );
    let summary: ProbeSummary | undefined;
    try {
      await waitUntil(() => probe.summary().requests > 20, { what: 'the probe running' });
      ok(await submit(a, d.specId, { model: 'v3', nvcfSimulate: { delayMs: 3000 } }));
      await waitUntil(() => subs.every((s) => s.events.some((e) => e.instanceStatusChanged.state === 'UPDATING')), {
        what: 'the rollout under way',
        timeoutMs: 30_000,
      });
      await topology.kill('gateway-1');
      lb.setBackends(topology.gateways.map((g) => g.url));
      await waitRevision(a, d.specId, 'APPLIED', 60_000);
      for (const sub of subs)
        await waitUntil(
          () => d.instanceIds.every((id) => seen(sub, d.instanceIds).transitions[id].includes('ACTIVE')),
          { what: 'every instance ACTIVE for each subscriber', timeoutMs: 60_000 },
        );
      summary = await probe.stop();
      for (const sub of subs) {
        const v = seen(sub, d.instanceIds);
        for (const id of d.instanceIds) expect([id, v.transitions[id]]).toEqual([id, ['UPDATING', 'ACTIVE']]);
        expect(v.duplicates).toBe(0);
      }
      // at most the queries in flight on the killed process (one every 50 ms, each answered in ms) fail, and their retry answers
      expect(summary.failed).toBeLessThanOrEqual(3);
      expect(summary.recovered).toBe(summary.failed);
      expect({ gaps: summary.gaps, duplicates: summary.duplicates }).toEqual({ gaps: 0, duplicates: 0 });
      console.log(
        JSON.stringify({
          sigkill: {
            requests: summary.requests,
            failed: summary.failed,
            recovered: summary.recovered,
            reconnects: summary.reconnects,
            gaps: summary.gaps,
            duplicates: summary.duplicates,
          },
        }),
      );
    } finally {
      if (!summary) await probe.stop();
      for (const sub of subs) sub.dispose();
    }
  }, 180_000);

  it('ICMS unreachable for 3 minutes while an update is submitted: it is accepted PENDING, and the agents get the work once ICMS is back', async () => {
    const a = client();
    const d = await deployedHelm(a, { minInstances: 2, maxInstances: 2 });
    const icms = topology.services.icms;
    const icmsBackends = topology
      .processes()
      .filter((p) => p.kind === 'icms')
      .map((p) => p.url);
    // what every ICMS pod down looks like to its callers: a Service without a ready endpoint
    icms.setBackends([]);
    let rev: { id: string; status: string };
    try {
      const downAt = Date.now();
      rev = ok(await submit(a, d.specId, { model: 'v4' })).updateGpuSpecification.latestRevision!;
      expect(rev).toMatchObject({ status: 'PENDING', deadline: null });
      await new Promise((r) => setTimeout(r, Math.max(0, ICMS_OUTAGE_MS - (Date.now() - downAt))));
      // neither failed nor started: it waits for ICMS, whatever the deadline
      const waiting = ok(await a(LatestRevisionDocument, { id: d.specId })).gpuSpecification!.latestRevision!;
      expect(waiting).toMatchObject({ id: rev.id, status: 'PENDING', deadline: null });
    } finally {
      icms.setBackends(icmsBackends);
    }
    const s = await waitRevision(a, d.specId, 'APPLIED', 60_000);
    expect(s.latestRevision!.id).toBe(rev.id);
    expect(s.instances.every((i) => i.revisionId === rev.id && i.state === 'ACTIVE')).toBe(true);
    await waitUntil(
      async () => {
        try {
          await nothingPending();
          return true;
        } catch {
          return false;
        }
      },
      { what: 'no work left on the queues', timeoutMs: 30_000 },
    );
  }, 360_000);
});

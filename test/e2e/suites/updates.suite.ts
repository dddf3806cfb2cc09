import { type Bus } from '@nvcf/bus';
import { Streams, subjects } from '@nvcf/contracts';
import {
  RollbackGpuSpecificationDocument,
  SpecUpdateActionsDocument,
  InstanceStatusChangedDocument,
  UpdateGpuSpecificationDocument,
  CreateFunctionDocument,
  DeployFunctionVersionDocument,
} from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import type { System } from '@nvcf/local';
import {
  httpClient,
  ok,
  errorCode,
  deployedHelm,
  expectRolledOver,
  waitRevision,
  type WatchedStatus,
  submit,
  readSpec,
  versionStatus,
  wsSubscribe,
  sseSubscribe,
  watchSubscriptions,
  helmFunction,
  deployHelm,
  l40s,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

const sim = (system: System, clusterId: string) =>
  system.drivers.get(clusterId) as unknown as {
    observe(id: string): Promise<any>;
    attempts(i: string, r: string): number;
  };
const clusterOf = async (system: System, instanceId: string) => {
  for (const [id, d] of system.drivers) if (await d.observe(instanceId)) return id;
  throw new Error(`no cluster runs ${instanceId}`);
};
/**
 * Waits until every message of a work-queue stream for this system's clusters was acked by
 * its agent (a NATS shared with other systems may hold work for clusters long gone).
 */
const drained = (bus: Bus, stream: string, ofSubjects: string[]) =>
  waitUntil(
    async () => {
      for (const subject of ofSubjects) if ((await bus.streamInfo(stream, { subject })).messages) return false;
      return true;
    },
    { what: `${stream} drained for ${ofSubjects.join(', ')}` },
  );

// Raw documents, not generated ones: the fields below are new, and the client package that
// generates documents is being moved (docs/api.md lists them).
interface Progress {
  total: number;
  applied: number;
  updating: number;
  failed: number;
  pending: number;
  startedAt: string | null;
  deadline: string | null;
}
interface ProgressData {
  gpuSpecification: {
    latestRevision: {
      id: string;
      status: string;
      createdAt: string;
      deadline: string | null;
      progress: Progress;
    } | null;
    lastAppliedRevision: { id: string; progress: Progress } | null;
    instances: { id: string; state: string; revisionId: string | null; targetRevisionId: string | null }[];
  } | null;
}
const PROGRESS = parse(`query RolloutProgress($id: ID!) {
  gpuSpecification(id: $id) {
    latestRevision { id status createdAt deadline progress { total applied updating failed pending startedAt deadline } }
    lastAppliedRevision { id progress { total applied updating failed pending startedAt deadline } }
    instances { id state revisionId targetRevisionId }
  }
}`) as TypedDocumentNode<ProgressData, { id: string }>;
// typed as WATCH selects: the instance's own state as well
type StatusData = WatchedStatus & { instanceStatusChanged: { instance: { state: string } } };
// snapshot: true first sends every instance's current state, so a subscriber knows it is live
// before the rollout it watches starts
const WATCH = parse(`subscription WatchRollout($spec: ID!) {
  instanceStatusChanged(gpuSpecificationId: $spec, snapshot: true) {
    kind state revisionId targetRevisionId instance { id state revisionId targetRevisionId }
  }
}`) as TypedDocumentNode<StatusData, { spec: string }>;
const sum = (p: Progress) => p.applied + p.updating + p.failed + p.pending;

/**
 * Watches a 3-instance rollout through a system's gateway, over graphql-ws and SSE: the
 * progress mid-rollout and at the end, and the target revision on every transition.
 */
async function watchRollout(system: System) {
  const a = httpClient(system.url, 'dev-token-a');
  const d = await deployedHelm(a, { minInstances: 3, maxInstances: 3 });
  const progressOf = async () => ok(await a(PROGRESS, { id: d.specId })).gpuSpecification!;
  const first = await progressOf();
  expect(first.latestRevision!.progress).toMatchObject({ total: 3, applied: 3, updating: 0, failed: 0, pending: 0 });
  expect(first.latestRevision!.progress.startedAt).not.toBeNull();

  await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', WATCH, { spec: d.specId });
  await using sse = sseSubscribe(system.url, 'dev-token-a', WATCH, { spec: d.specId });
  for (const sub of [ws, sse])
    await sub.until(
      (e) => e.filter((x) => x.instanceStatusChanged.kind === 'SNAPSHOT').length === 3,
      'the snapshot of every instance',
    );

  // slow enough to see the instances UPDATING, well within the suite's 4 s revision deadline
  const r2 = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 1000 } })).updateGpuSpecification
    .latestRevision!;
  const mid = await waitUntil(
    async () => {
      const s = await progressOf();
      return (
        s.latestRevision!.id === r2.id &&
        s.latestRevision!.progress.updating > 0 &&
        s.instances.some((i) => i.state === 'UPDATING') &&
        s
      );
    },
    { what: 'the rollout under way, instances UPDATING', timeoutMs: 10_000 },
  );
  const p = mid.latestRevision!.progress;
  expect(mid.latestRevision!.status).toBe('ROLLING_OUT');
  expect(p.total).toBe(3);
  expect(sum(p)).toBe(p.total);
  expect(p.applied).toBeLessThan(3);
  expect(p.failed).toBe(0);
  expect(p.deadline).toBe(mid.latestRevision!.deadline);
  expect(Date.parse(p.startedAt!)).toBeGreaterThanOrEqual(Date.parse(mid.latestRevision!.createdAt));
  // the last applied revision, read in the same request: its targets still serve it while
  // UPDATING or not yet moved, and the ones that moved on count as its pending
  const old = mid.lastAppliedRevision!;
  expect(old.id).toBe(d.firstRevisionId);
  expect(old.progress).toMatchObject({
    total: 3,
    applied: p.updating + p.pending,
    pending: p.applied,
    updating: 0,
    failed: 0,
  });
  for (const i of mid.instances.filter((x) => x.state === 'UPDATING'))
    expect(i).toMatchObject({ revisionId: d.firstRevisionId, targetRevisionId: r2.id });

  const done = await waitRevision(a, d.specId, 'APPLIED');
  expect(done.latestRevision!.id).toBe(r2.id);
  const end = await progressOf();
  expect(end.latestRevision!.progress).toMatchObject({
    total: 3,
    applied: 3,
    updating: 0,
    failed: 0,
    pending: 0,
    deadline: end.latestRevision!.deadline,
  });
  expect(end.lastAppliedRevision!.id).toBe(r2.id);
  expect(end.instances.map((i) => [i.state, i.revisionId, i.targetRevisionId])).toEqual(
    d.instanceIds.map(() => ['ACTIVE', r2.id, null]),
  );

  // every transition, on both transports
  for (const sub of [ws, sse]) {
    await expectRolledOver(sub, d.instanceIds, d.firstRevisionId, r2.id);
    // the snapshot shows the state before the rollout: ACTIVE on the old revision, going nowhere
    const snapshot = sub.events.map((e) => e.instanceStatusChanged).filter((e) => e.kind === 'SNAPSHOT');
    expect(snapshot.map((e) => [e.state, e.revisionId, e.targetRevisionId])).toEqual(
      d.instanceIds.map(() => ['ACTIVE', d.firstRevisionId, null]),
    );
    expect(sub.errors).toEqual([]);
  }
}

/** DOMAIN.md "In-place configuration updates", rules 1-10, through the gateway. */
export function updatesSuite(name: string, make: MakeSystem) {
  describe(`${name}: in-place configuration updates`, () => {
    let system: System;
    const a = () => httpClient(system.url, 'dev-token-a');
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => system?.dispose());

    it('rule 1: the whole configuration is stored and applied, never merged', async () => {
      const d = await deployedHelm(a(), { configuration: { model: 'v1', replicas: 2, extra: { keep: true } } });
      ok(await submit(a(), d.specId, { model: 'v2' }));
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(s.configuration).toEqual({ model: 'v2' });
      const cluster = await clusterOf(system, d.instanceIds[0]);
      const applied = await sim(system, cluster).observe(d.instanceIds[0]);
      expect(applied.desired.workload.values).toEqual({ model: 'v2' });
    });

    it('rule 2: refused before ICMS accepted an instance request, nothing stored; accepted while DEPLOYING', async () => {
      const { versionId } = await helmFunction(a());
      const [idle] = await deployHelm(a(), versionId, [l40s({ minInstances: 0 })]);
      const before = await readSpec(a(), idle);
      const r = await submit(a(), idle, { model: 'v2' });
      expect(errorCode(r)).toBe('UPDATE_NOT_ALLOWED');
      expect(r.errors![0].message).toContain('minInstances');
      expect((await readSpec(a(), idle))!.latestRevision).toEqual(before!.latestRevision);

      const slow = await helmFunction(a());
      const [specId] = await deployHelm(a(), slow.versionId, [
        l40s({ minInstances: 1, configuration: { nvcfSimulate: { delayMs: 800 } } }),
      ]);
      expect(await versionStatus(a(), slow.versionId)).toBe('DEPLOYING');
      const accepted = ok(await submit(a(), specId, { model: 'during-deploy' }));
      expect(accepted.updateGpuSpecification.latestRevision!.configuration).toEqual({ model: 'during-deploy' });
      await waitRevision(a(), specId, 'APPLIED');
    });

    it('rule 3: container functions get a clear error', async () => {
      const v = ok(
        await a()(CreateFunctionDocument, { input: { name: 'ctr', container: { image: 'nvcr.io/nca-a/echo:1' } } }),
      ).createFunction;
      const dep = ok(
        await a()(DeployFunctionVersionDocument, {
          versionId: v.id,
          input: { gpuSpecifications: [l40s({ minInstances: 1, configuration: null })] },
        }),
      );
      const specId = dep.deployFunctionVersion.gpuSpecifications[0].id;
      await waitUntil(async () => (await versionStatus(a(), v.id)) === 'ACTIVE');
      const r = await submit(a(), specId, { model: 'v2' });
      expect(errorCode(r)).toBe('UPDATE_NOT_ALLOWED');
      expect(r.errors![0].message).toContain('container functions cannot be updated in place');
    });

    it('rule 4: a change of the sidecar contract needs a redeploy; restating it is fine', async () => {
      const d = await deployedHelm(a());
      for (const bad of [
        { serviceName: 'other' },
        { inferencePort: 9000 },
        { health: { protocol: 'HTTP', uri: '/x', port: 1 } },
      ]) {
        const r = await submit(a(), d.specId, { model: 'v2', ...bad });
        expect(errorCode(r)).toBe('REDEPLOY_REQUIRED');
        expect(r.errors![0].message).toContain('new function version');
      }
      expect((await readSpec(a(), d.specId))!.latestRevision!.id).toBe(d.firstRevisionId);
      ok(await submit(a(), d.specId, { model: 'v2', serviceName: 'echo', inferencePort: 8000 }));
      await waitRevision(a(), d.specId, 'APPLIED');
    });

    it('rule 5: exactly two revisions kept; racing owners never lose an update silently', async () => {
      const d = await deployedHelm(a());
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => submit(a(), d.specId, { model: `race-${i}` })),
      );
      const won = results.filter((r) => !r.errors);
      const lost = results.filter((r) => r.errors);
      expect(won.length).toBeGreaterThanOrEqual(1);
      for (const r of lost) expect(errorCode(r)).toBe('CONFLICT');
      // every accepted submission is visible as the winner or was superseded by a later accepted one; no torn state
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      const winner = won.find((r) => r.data!.updateGpuSpecification.latestRevision!.id === s.latestRevision!.id);
      expect(winner).toBeDefined();
      expect(s.latestRevision!.configuration).toEqual(
        winner!.data!.updateGpuSpecification.latestRevision!.configuration,
      );
      expect(s.lastAppliedRevision!.id).toBe(s.latestRevision!.id);
    });

    it('expectedRevisionId: a read-modify-write based on a revision that is no longer latest is a CONFLICT, nothing stored', async () => {
      const d = await deployedHelm(a());
      const update = (model: string, expectedRevisionId: string) =>
        a()(UpdateGpuSpecificationDocument, {
          id: d.specId,
          input: { revision: { configuration: { model } }, expectedRevisionId },
        });
      // two owners read the same latest revision; the first to submit wins
      const first = ok(await update('owner-1', d.firstRevisionId)).updateGpuSpecification.latestRevision!.id;
      const stale = await update('owner-2', d.firstRevisionId);
      expect(errorCode(stale)).toBe('CONFLICT');
      expect(stale.errors![0].message).toContain(first);
      expect((await readSpec(a(), d.specId))!.latestRevision).toMatchObject({
        id: first,
        configuration: { model: 'owner-1' },
      });
      // based on the current one, it goes through
      const next = ok(await update('owner-2', first)).updateGpuSpecification.latestRevision!;
      expect(next.configuration).toEqual({ model: 'owner-2' });
      expect((await waitRevision(a(), d.specId, 'APPLIED')).latestRevision!.id).toBe(next.id);
    });

    it('rule 6: ICMS targets the full instance set, one message per managing cluster', async () => {
      const d = await deployedHelm(a(), { minInstances: 3, maxInstances: 3 });
      const clusters = new Set(await Promise.all(d.instanceIds.map((i) => clusterOf(system, i))));
      expect(clusters.size).toBe(2); // the L40S spec spreads over both demo clusters
      const before = await system.backends.bus.streamInfo(Streams.update.name);
      const rev = ok(await submit(a(), d.specId, { model: 'v2' })).updateGpuSpecification.latestRevision!;
      await waitRevision(a(), d.specId, 'APPLIED');
      const after = await system.backends.bus.streamInfo(Streams.update.name);
      expect(after.lastSeq - before.lastSeq).toBe(clusters.size);
      const actions = ok(await a()(SpecUpdateActionsDocument, { id: d.specId })).gpuSpecification!.updateActions;
      expect(actions[0].revisionId).toBe(rev.id);
      expect(actions[0].targets.map((t) => t.id).sort()).toEqual([...d.instanceIds].sort());
    });

    it('rule 7: an update creates no instance; instances launched later start on the latest revision', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 3 });
      const rev = ok(await submit(a(), d.specId, { model: 'v2' })).updateGpuSpecification.latestRevision!;
      let s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(s.instances.map((i) => i.id)).toEqual(d.instanceIds);
      ok(await a()(UpdateGpuSpecificationDocument, { id: d.specId, input: { minInstances: 2 } }));
      s = await waitUntil(async () => {
        const x = (await readSpec(a(), d.specId))!;
        return x.instances.length === 2 && x.instances.every((i) => i.state === 'ACTIVE') && x;
      });
      const added = s.instances.find((i) => !d.instanceIds.includes(i.id))!;
      expect(added.revisionId).toBe(rev.id);
    });

    it('rule 8: redelivery of an applied revision and targets on other clusters are no-ops', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const id = d.instanceIds[0];
      const home = await clusterOf(system, id);
      const other = [...system.drivers.keys()].find((c) => c !== home)!;
      const rev = ok(await submit(a(), d.specId, { model: 'v2' })).updateGpuSpecification.latestRevision!;
      await waitRevision(a(), d.specId, 'APPLIED');
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: id,
      });
      await watchA.opened(1);
      const attempts = sim(system, home).attempts(id, rev.id);
      const observed = await sim(system, home).observe(id);
      const msg = {
        type: 'update',
        updateActionId: 'redelivered',
        ncaId: 'nca-a',
        functionId: d.functionId,
        versionId: d.versionId,
        gpuSpecificationId: d.specId,
        revisionId: rev.id,
        revisionCreatedAt: rev.createdAt,
        workload: observed.desired.workload,
        targets: [id],
      };
      await system.backends.bus.publish(`Update.NVCA.${home}`, { ...msg, clusterId: home }, { msgId: 'redelivery-1' });
      await system.backends.bus.publish(
        `Update.NVCA.${other}`,
        { ...msg, clusterId: other, revisionId: 'not-for-you', revisionCreatedAt: new Date().toISOString() },
        { msgId: 'foreign-1' },
      );
      await drained(
        system.backends.bus,
        Streams.update.name,
        system.clusters.map((c) => subjects.update(c.id)),
      );
      expect(sim(system, home).attempts(id, rev.id)).toBe(attempts);
      expect(await sim(system, other).observe(id)).toBeNull();
      // a real transition afterwards is the first event the subscription sees: nothing was reported in between
      ok(await submit(a(), d.specId, { model: 'v3' }));
      const evs = await sub.until((e) => e.some((x) => x.instanceStatusChanged.state === 'ACTIVE'));
      expect(evs[0].instanceStatusChanged.state).toBe('UPDATING');
    });

    it('rule 9: a temporary failure recovers while UPDATING; a permanent one fails the revision at once', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const id = d.instanceIds[0];
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: id,
      });
      await watchA.opened(1);
      const temp = ok(
        await submit(a(), d.specId, { model: 'v2', nvcfSimulate: { failure: 'temporary', failTimes: 2 } }),
      ).updateGpuSpecification.latestRevision!;
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(sim(system, await clusterOf(system, id)).attempts(id, temp.id)).toBe(3);
      await sub.until((e) =>
        e.some((x) => x.instanceStatusChanged.revisionId === temp.id && x.instanceStatusChanged.state === 'ACTIVE'),
      );
      expect(sub.events.map((e) => e.instanceStatusChanged.state)).toEqual(['UPDATING', 'ACTIVE']);

      const perm = ok(await submit(a(), d.specId, { model: 'v3', nvcfSimulate: { failure: 'permanent' } }))
        .updateGpuSpecification.latestRevision!;
      const failed = await waitRevision(a(), d.specId, 'FAILED');
      expect(failed.latestRevision!.id).toBe(perm.id);
      expect(failed.latestRevision!.failureReason).toContain('nvcfSimulate permanent failure');
      expect(failed.lastAppliedRevision!.id).toBe(s.lastAppliedRevision!.id);
      expect(failed.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', temp.id]]);
      expect(await versionStatus(a(), d.versionId)).toBe('ACTIVE');
      expect(sim(system, await clusterOf(system, id)).attempts(id, perm.id)).toBe(1);
    });

    it('rule 9: a revision not applied by its deadline is FAILED; the instances keep serving', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      ok(await submit(a(), d.specId, { model: 'slow', nvcfSimulate: { delayMs: 30_000 } }));
      const s = await waitRevision(a(), d.specId, 'FAILED', 15_000);
      expect(s.latestRevision!.failureReason).toMatch(/deadline .* passed with 0 of 1 instances/);
      expect(s.lastAppliedRevision!.id).toBe(d.firstRevisionId);
      expect(s.instances[0].revisionId).toBe(d.firstRevisionId);
      expect(await versionStatus(a(), d.versionId)).toBe('ACTIVE');
    });

    it('a newer revision supersedes one still rolling out', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const slow = ok(await submit(a(), d.specId, { model: 'slow', nvcfSimulate: { delayMs: 300 } }))
        .updateGpuSpecification.latestRevision!;
      const next = ok(await submit(a(), d.specId, { model: 'next' })).updateGpuSpecification.latestRevision!;
      expect(next.supersedes).toBe(slow.id);
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(s.latestRevision!.id).toBe(next.id);
      expect(s.instances[0].revisionId).toBe(next.id);
    });

    it('rule 10: rollback rolls forward to the last applied configuration; refused with nothing to roll back to', async () => {
      const d = await deployedHelm(a(), { configuration: { model: 'good' } });
      const none = await a()(RollbackGpuSpecificationDocument, { id: d.specId });
      expect(errorCode(none)).toBe('UPDATE_NOT_ALLOWED');
      expect(none.errors![0].message).toContain('nothing to roll back to');
      ok(await submit(a(), d.specId, { model: 'bad', nvcfSimulate: { failure: 'permanent' } }));
      await waitRevision(a(), d.specId, 'FAILED');
      const rb = ok(await a()(RollbackGpuSpecificationDocument, { id: d.specId })).rollbackGpuSpecification;
      expect(rb.latestRevision!.id).not.toBe(d.firstRevisionId);
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(s.latestRevision!.configuration).toEqual({ model: 'good' });
      expect(s.lastAppliedRevision!.id).toBe(rb.latestRevision!.id);
    });

    it('rollout progress on the revision, and the revision an UPDATING instance moves to', async () => {
      await watchRollout(system);
    });

    describe('refusals', () => {
      let spec: Awaited<ReturnType<typeof deployedHelm>>;
      beforeAll(async () => {
        spec = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      });

      it('another tenant cannot see or update the spec', async () => {
        const b = httpClient(system.url, 'dev-token-b');
        expect(errorCode(await submit(b, spec.specId, { model: 'x' }))).toBe('NOT_FOUND');
        expect(errorCode(await b(RollbackGpuSpecificationDocument, { id: spec.specId }))).toBe('NOT_FOUND');
        expect(await readSpec(b, spec.specId)).toBeNull();
      });
      it('an unknown spec is NOT_FOUND', async () => {
        expect(errorCode(await submit(a(), 'no-such-spec', { model: 'x' }))).toBe('NOT_FOUND');
      });
      it('a configuration that is not an object is BAD_USER_INPUT, nothing stored', async () => {
        for (const bad of [[1, 2], 'text', 42, null]) {
          const r = await submit(a(), spec.specId, bad);
          expect(errorCode(r)).toBe('BAD_USER_INPUT');
          expect(r.errors![0].message).toContain('must be a JSON object');
        }
        expect((await readSpec(a(), spec.specId))!.latestRevision!.id).toBe(spec.firstRevisionId);
      });
      it('an oversize document is refused with the limit named', async () => {
        const r = await submit(a(), spec.specId, { blob: 'x'.repeat(70 * 1024) });
        expect(errorCode(r)).toBe('LIMIT_EXCEEDED');
        expect(r.errors![0].message).toContain('the limit is 65536 bytes');
        expect((await readSpec(a(), spec.specId))!.latestRevision!.id).toBe(spec.firstRevisionId);
      });
    });
  });
}

/**
 * The update rules on the Kubernetes driver (NATS, Cassandra, the test kube-apiserver and its
 * cluster simulator): one system for the file; what only the simulated driver can show
 * (attempt counts) stays in `updatesSuite`.
 */
export function updatesKubernetesSuite(
  start: () => Promise<import('./kubernetes.js').KubeSystem>,
  cleanup: (k: import('./kubernetes.js').KubeSystem | undefined) => Promise<void>,
) {
  describe('kubernetes driver: in-place configuration updates', () => {
    let k: import('./kubernetes.js').KubeSystem;
    const a = () => httpClient(k.system.url, 'dev-token-a');
    const miniService = async (instanceId: string) => {
      const cluster = await clusterOf(k.system, instanceId);
      const list = await k.client.list('nvca.nvcf.nvidia.io/v1alpha1', 'MiniService', {
        labelSelector: `nvcf.nvidia.com/cluster-id=${cluster},nvcf.nvidia.com/instance-id=${instanceId}`,
      });
      return list.items[0];
    };
    beforeAll(async () => {
      k = await start();
    });
    afterAll(async () => {
      await k?.system.dispose();
      await cleanup(k);
    });

    it('applies in place: the same MiniService (UID), a new generation with the whole configuration', async () => {
      const d = await deployedHelm(a(), {
        minInstances: 1,
        maxInstances: 1,
        configuration: { model: 'v1', extra: { keep: true } },
      });
      const before = await miniService(d.instanceIds[0]);
      expect(before?.spec.values).toEqual({ model: 'v1', extra: { keep: true } });
      const rev = ok(await submit(a(), d.specId, { model: 'v2' })).updateGpuSpecification.latestRevision!;
      const s = await waitRevision(a(), d.specId, 'APPLIED');
      expect(s.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', rev.id]]);
      const after = await miniService(d.instanceIds[0]);
      expect(after?.metadata.uid).toBe(before?.metadata.uid);
      expect(after?.metadata.generation).toBe(before.metadata.generation! + 1);
      expect(after?.spec.values).toEqual({ model: 'v2' });
    });

    it('ignores update targets it does not manage: no object, no transition', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const id = d.instanceIds[0];
      const home = await clusterOf(k.system, id);
      const observed = await k.system.drivers.get(home)!.observe(id);
      const stranger = `stranger-${Date.now()}`;
      const rev = (await readSpec(a(), d.specId))!.latestRevision!;
      const msg = {
        type: 'update',
        updateActionId: `foreign-${stranger}`,
        ncaId: 'nca-a',
        functionId: d.functionId,
        versionId: d.versionId,
        gpuSpecificationId: d.specId,
        clusterId: home,
        revisionId: 'not-yours',
        revisionCreatedAt: new Date().toISOString(),
        workload: observed!.desired.workload,
        targets: [stranger],
      };
      await k.system.backends.bus.publish(subjects.update(home), msg, { msgId: msg.updateActionId });
      await drained(k.system.backends.bus, Streams.update.name, [subjects.update(home)]);
      expect(await k.system.drivers.get(home)!.observe(stranger)).toBeNull();
      const list = await k.client.list('nvca.nvcf.nvidia.io/v1alpha1', 'MiniService', {
        labelSelector: `nvcf.nvidia.com/instance-id=${stranger}`,
      });
      expect(list.items).toEqual([]);
      expect((await readSpec(a(), d.specId))!.instances.map((i) => [i.state, i.revisionId])).toEqual([
        ['ACTIVE', rev.id],
      ]);
    });

    it('a permanent failure (the controller says Failed) fails the revision; the instance keeps its last revision', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const uid = (await miniService(d.instanceIds[0]))?.metadata.uid;
      const perm = ok(await submit(a(), d.specId, { model: 'v3', nvcfSimulate: { failure: 'permanent' } }))
        .updateGpuSpecification.latestRevision!;
      const failed = await waitRevision(a(), d.specId, 'FAILED');
      expect(failed.latestRevision!.id).toBe(perm.id);
      expect(failed.latestRevision!.failureReason).toContain('nvcfSimulate permanent failure');
      expect(failed.lastAppliedRevision!.id).toBe(d.firstRevisionId);
      expect(failed.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', d.firstRevisionId]]);
      expect(await versionStatus(a(), d.versionId)).toBe('ACTIVE');
      expect((await miniService(d.instanceIds[0]))?.metadata.uid).toBe(uid);
    });
  });
}

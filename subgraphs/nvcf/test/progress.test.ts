/**
 * Revision.progress: the counts (every edge case of the rules in schema/nvcf.graphql), their
 * agreement with the rollout's own outcome, and the cost of the field through the schema.
 */
import { execute, parse } from 'graphql';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { createMemoryNvcfStore, type NvcfStore } from '../src/index.js';
import { rolloutProgress } from '../src/progress.js';
import { Rollouts } from '../src/rollouts.js';
import { Nvcf } from '../src/nvcf.js';
import { buildNvcfSchema } from '../src/server.js';
import { createLoaders } from '../src/loaders.js';
import type { IcmsClient } from '../src/icms-client.js';
import type { InstanceObservation, Revision, RolloutProgress } from '../src/model.js';
import { specOf } from './fixtures.js';

const created = '2026-01-01T00:00:00.000Z';
const started = '2026-01-01T00:00:01.000Z';
const deadline = '2026-01-01T00:10:00.000Z';
const rev = (id: string, patch: Partial<Revision> = {}): Revision => ({
  id,
  specId: 'spec',
  status: 'ROLLING_OUT',
  configuration: {},
  createdAt: created,
  startedAt: started,
  deadline,
  targets: [],
  ...patch,
});
let clock = 0;
const obs = (
  instanceId: string,
  state: InstanceObservation['state'],
  revisionId: string | null,
  patch: Partial<InstanceObservation> = {},
): InstanceObservation => ({
  instanceId,
  state,
  revisionId,
  clock: ++clock,
  targetRevisionId: null,
  failedRevisionId: null,
  message: null,
  ...patch,
});
const counts = (p: RolloutProgress) => ({
  total: p.total,
  applied: p.applied,
  updating: p.updating,
  failed: p.failed,
  pending: p.pending,
});
const sums = (p: RolloutProgress) => p.applied + p.updating + p.failed + p.pending === p.total;

describe('rolloutProgress', () => {
  it('a revision without targets counts nothing; startedAt is null until it was handed to ICMS', () => {
    const pending = rev('r2', { status: 'PENDING', targets: null, startedAt: null });
    expect(rolloutProgress(pending, [obs('i1', 'ACTIVE', 'r1')], true)).toEqual({
      total: 0,
      applied: 0,
      updating: 0,
      failed: 0,
      pending: 0,
      startedAt: null,
      deadline,
    });
    const refused = rev('r2', {
      status: 'FAILED',
      targets: null,
      startedAt: null,
      failureReason: 'ICMS did not accept the update',
    });
    expect(rolloutProgress(refused, [], true)).toMatchObject({ total: 0, startedAt: null });
  });

  it('mid-rollout: applied, updating, pending (an older revision, STARTING, not reported yet), summing to total', () => {
    const r2 = rev('r2', { targets: ['i1', 'i2', 'i3', 'i4', 'i5'] });
    const states = [
      obs('i1', 'ACTIVE', 'r2'),
      obs('i2', 'UPDATING', 'r1', { targetRevisionId: 'r2' }),
      obs('i3', 'ACTIVE', 'r1'),
      obs('i4', 'STARTING', null),
      // i5: accepted by ICMS, never reported
    ];
    const p = rolloutProgress(r2, states, true);
    expect(counts(p)).toEqual({ total: 5, applied: 1, updating: 1, failed: 0, pending: 3 });
    expect(p.startedAt).toBe(started);
    expect(p.deadline).toBe(deadline);
  });

  it('APPLIED latest revision: applied == total', () => {
    const r2 = rev('r2', { status: 'APPLIED', appliedAt: deadline, targets: ['i1', 'i2'] });
    expect(counts(rolloutProgress(r2, [obs('i1', 'ACTIVE', 'r2'), obs('i2', 'ACTIVE', 'r2')], true))).toEqual({
      total: 2,
      applied: 2,
      updating: 0,
      failed: 0,
      pending: 0,
    });
  });

  it('an UPDATING instance counts for the revision it moves to, and as applied for the one it still serves', () => {
    const states = [obs('i1', 'UPDATING', 'r1', { targetRevisionId: 'r2' })];
    expect(counts(rolloutProgress(rev('r2', { targets: ['i1'] }), states, true))).toMatchObject({
      updating: 1,
      applied: 0,
      pending: 0,
    });
    // r1 is lastAppliedRevision while r2 rolls out: i1 still serves it
    expect(counts(rolloutProgress(rev('r1', { status: 'APPLIED', targets: ['i1'] }), states, false))).toMatchObject({
      applied: 1,
      updating: 0,
      pending: 0,
    });
  });

  it('an instance UPDATING to a superseded revision is pending for the revision that superseded it', () => {
    const r3 = rev('r3', { supersedes: 'r2', targets: ['i1', 'i2'] });
    const states = [obs('i1', 'UPDATING', 'r1', { targetRevisionId: 'r2' }), obs('i2', 'ACTIVE', 'r2')];
    expect(counts(rolloutProgress(r3, states, true))).toEqual({
      total: 2,
      applied: 0,
      updating: 0,
      failed: 0,
      pending: 2,
    });
  });

  it('an UPDATING event without a target (an older agent) moves to the latest revision only', () => {
    const states = [obs('i1', 'UPDATING', 'r0', { targetRevisionId: null })];
    expect(counts(rolloutProgress(rev('r2', { targets: ['i1'] }), states, true))).toMatchObject({
      updating: 1,
      pending: 0,
    });
    expect(counts(rolloutProgress(rev('r1', { status: 'APPLIED', targets: ['i1'] }), states, false))).toMatchObject({
      updating: 0,
      pending: 1,
    });
    // an observation recorded before the field existed has no key at all
    const legacy: InstanceObservation = { instanceId: 'i1', state: 'UPDATING', revisionId: 'r0', clock: 1 };
    expect(rolloutProgress(rev('r2', { targets: ['i1'] }), [legacy], true).updating).toBe(1);
  });

  it('failed: a permanent update failure (ACTIVE on the old revision), a FAILED update, a FAILED start on the latest revision', () => {
    const r2 = rev('r2', { status: 'FAILED', failureReason: 'instance i1: …', targets: ['i1', 'i2', 'i3', 'i4'] });
    const states = [
      obs('i1', 'ACTIVE', 'r1', { failedRevisionId: 'r2', message: 'update to revision r2 failed: rejected' }),
      obs('i2', 'FAILED', null, { targetRevisionId: 'r2' }),
      obs('i3', 'FAILED', null),
      obs('i4', 'ACTIVE', 'r2'), // the others still apply a FAILED revision: counted as they are now
    ];
    expect(counts(rolloutProgress(r2, states, true))).toEqual({
      total: 4,
      applied: 1,
      updating: 0,
      failed: 3,
      pending: 0,
    });
    // the same instances seen from r1, the last applied revision: i1 still serves it; i2, i3 merely left it
    const r1 = rev('r1', { status: 'APPLIED', targets: ['i1', 'i2', 'i3', 'i4'] });
    expect(counts(rolloutProgress(r1, states, false))).toEqual({
      total: 4,
      applied: 1,
      updating: 0,
      failed: 0,
      pending: 3,
    });
  });

  it('a FAILED instance counts for the revision it failed on, or while moving to, also when not the latest', () => {
    const r1 = rev('r1', { status: 'APPLIED', targets: ['i1', 'i2'] });
    const states = [obs('i1', 'FAILED', 'r1'), obs('i2', 'FAILED', null, { targetRevisionId: 'r1' })];
    expect(counts(rolloutProgress(r1, states, false))).toMatchObject({ failed: 2, pending: 0 });
  });

  it('an APPLIED revision counts its targets as they are now: moved on to a newer revision is pending', () => {
    const r1 = rev('r1', { status: 'APPLIED', targets: ['i1', 'i2', 'i3'] });
    const states = [
      obs('i1', 'ACTIVE', 'r2'),
      obs('i2', 'UPDATING', 'r1', { targetRevisionId: 'r2' }),
      obs('i3', 'ACTIVE', 'r1'),
    ];
    const p = rolloutProgress(r1, states, false);
    expect(counts(p)).toEqual({ total: 3, applied: 2, updating: 0, failed: 0, pending: 1 });
    expect(sums(p)).toBe(true);
  });

  it('scale changes: a TERMINATED target leaves the scope; an instance launched later is not a target', () => {
    const r2 = rev('r2', { targets: ['i1', 'i2', 'i3'] });
    const states = [
      obs('i1', 'ACTIVE', 'r2'),
      obs('i2', 'TERMINATED', 'r1'), // scaled down mid-rollout
      obs('i3', 'UPDATING', 'r1', { targetRevisionId: 'r2' }),
      obs('i9', 'ACTIVE', 'r2'), // launched by a higher minInstances after the rollout started
      obs('i8', 'STARTING', null),
    ];
    expect(counts(rolloutProgress(r2, states, true))).toEqual({
      total: 2,
      applied: 1,
      updating: 1,
      failed: 0,
      pending: 0,
    });
    // every target terminated (undeployed): nothing in scope
    expect(
      counts(
        rolloutProgress(
          r2,
          ['i1', 'i2', 'i3'].map((i) => obs(i, 'TERMINATED', 'r2')),
          true,
        ),
      ),
    ).toEqual({ total: 0, applied: 0, updating: 0, failed: 0, pending: 0 });
  });

  it('a target listed twice is one instance', () => {
    expect(rolloutProgress(rev('r2', { targets: ['i1', 'i1'] }), [obs('i1', 'ACTIVE', 'r2')], true).total).toBe(1);
  });

  it('startedAt: revisions stored before it was recorded give createdAt once they were handed to ICMS', () => {
    expect(rolloutProgress(rev('r2', { startedAt: undefined, targets: ['i1'] }), [], true).startedAt).toBe(created);
    expect(
      rolloutProgress(rev('r2', { startedAt: undefined, status: 'APPLIED', targets: ['i1'] }), [], true).startedAt,
    ).toBe(created);
    expect(
      rolloutProgress(rev('r2', { startedAt: undefined, status: 'PENDING', targets: null }), [], true).startedAt,
    ).toBeNull();
    expect(rolloutProgress(rev('r2', { deadline: null }), [], true).deadline).toBeNull();
  });

  it('sums to total whatever the states (every state × revision relation, latest or not)', () => {
    const relations = [null, 'r0', 'r1', 'r2', 'r3'];
    const statesOf: InstanceObservation['state'][] = ['STARTING', 'ACTIVE', 'UPDATING', 'FAILED', 'TERMINATED'];
    const all: InstanceObservation[] = [];
    let n = 0;
    for (const state of statesOf)
      for (const revisionId of relations)
        for (const targetRevisionId of relations)
          for (const failedRevisionId of [null, 'r2']) {
            all.push(obs(`i${n++}`, state, revisionId, { targetRevisionId, failedRevisionId }));
          }
    const targets = [...all.map((s) => s.instanceId), 'unreported'];
    for (const latest of [true, false]) {
      const p = rolloutProgress(rev('r2', { targets }), all, latest);
      expect(sums(p)).toBe(true);
      expect(p.total).toBe(targets.length - all.filter((s) => s.state === 'TERMINATED').length);
    }
  });
});

describe('progress agrees with the rollout outcome', () => {
  /** A spec whose latest revision rolls out to `targets`, on a memory store. */
  async function rolling(store: NvcfStore, targets: string[]) {
    const r1 = rev('r1', { status: 'APPLIED', targets });
    const r2 = rev('r2', { targets });
    await store.casRevisions('spec', null, { latest: r2, lastApplied: r1 });
    return r2;
  }
  const latestOf = async (store: NvcfStore) => (await store.getRevisions(['spec']))[0].latest!;

  it('APPLIED exactly when applied == total; FAILED by an instance with failed ≥ 1', async () => {
    const store = createMemoryNvcfStore();
    const rollouts = new Rollouts(store);
    await rolling(store, ['i1', 'i2', 'i3']);
    await store.recordInstance('spec', obs('i1', 'ACTIVE', 'r2'));
    await store.recordInstance('spec', obs('i2', 'UPDATING', 'r1', { targetRevisionId: 'r2' }));
    await store.recordInstance('spec', obs('i3', 'TERMINATED', 'r1'));
    await rollouts.evaluate('spec');
    let p = rolloutProgress(await latestOf(store), await store.instanceStates('spec'), true);
    expect((await latestOf(store)).status).toBe('ROLLING_OUT');
    expect(counts(p)).toEqual({ total: 2, applied: 1, updating: 1, failed: 0, pending: 0 });

    await store.recordInstance('spec', obs('i2', 'ACTIVE', 'r2'));
    await rollouts.evaluate('spec');
    p = rolloutProgress(await latestOf(store), await store.instanceStates('spec'), true);
    expect((await latestOf(store)).status).toBe('APPLIED');
    expect(p.applied).toBe(p.total);

    const other = createMemoryNvcfStore();
    await rolling(other, ['i1', 'i2']);
    await other.recordInstance(
      'spec',
      obs('i1', 'ACTIVE', 'r1', { failedRevisionId: 'r2', message: 'update to revision r2 failed' }),
    );
    await new Rollouts(other).evaluate('spec');
    expect((await latestOf(other)).status).toBe('FAILED');
    expect(rolloutProgress(await latestOf(other), await other.instanceStates('spec'), true).failed).toBe(1);
  });

  it('a deadline failure names the same counts as the progress', async () => {
    const store = createMemoryNvcfStore();
    await rolling(store, ['i1', 'i2', 'i3']);
    await store.recordInstance('spec', obs('i1', 'ACTIVE', 'r2'));
    await store.recordInstance('spec', obs('i2', 'TERMINATED', 'r1'));
    await store.recordInstance('spec', obs('i3', 'UPDATING', 'r1', { targetRevisionId: 'r2' }));
    expect(await new Rollouts(store).sweepDeadlines(Date.parse(deadline) + 1)).toBe(1);
    expect((await latestOf(store)).failureReason).toBe(
      `deadline ${deadline} passed with 1 of 2 instances on this revision`,
    );
  });

  it('past its deadline with every target on it, a revision is APPLIED, not failed (its evaluation was held up)', async () => {
    const store = createMemoryNvcfStore();
    await rolling(store, ['i1', 'i2']);
    // recorded by a reader whose evaluation never ran (the store went away right after, say)
    await store.recordInstance('spec', obs('i1', 'ACTIVE', 'r2'));
    await store.recordInstance('spec', obs('i2', 'ACTIVE', 'r2'));
    expect(await new Rollouts(store).sweepDeadlines(Date.parse(deadline) + 1)).toBe(0);
    expect((await latestOf(store)).status).toBe('APPLIED');
  });
});

describe('version status from instance reports', () => {
  it('an ACTIVE version reads no instance states for running reports, and degrades on a failed one', async () => {
    const memory = createMemoryNvcfStore();
    const ids = ['i1', 'i2'];
    await memory.putVersion({
      id: 'ver',
      functionId: 'fn',
      ncaId: 'nca-a',
      status: 'ACTIVE',
      workloadType: 'HELM',
      createdAt: created,
    });
    await memory.putDeployment(
      { id: 'dep', versionId: 'ver', ncaId: 'nca-a', specIds: ['spec'], createdAt: created },
      [specOf(2)],
      [{ specId: 'spec', latest: rev('r1', { status: 'APPLIED', targets: ids }), lastApplied: null }],
    );
    let reads = 0;
    const store: NvcfStore = {
      ...memory,
      instanceStates: (specId) => {
        reads++;
        return memory.instanceStates(specId);
      },
    };
    const rollouts = new Rollouts(store);
    const statusOf = async () => (await memory.getVersions(['ver']))[0]!.status;

    for (const id of ids) await memory.recordInstance('spec', obs(id, 'UPDATING', 'r1'));
    for (const id of ids) await memory.recordInstance('spec', obs(id, 'ACTIVE', 'r1'));
    await Promise.all([rollouts.evaluateVersion('ver', 'UPDATING'), rollouts.evaluateVersion('ver', 'ACTIVE')]);
    expect(reads).toBe(0);
    expect(await statusOf()).toBe('ACTIVE');

    await memory.recordInstance('spec', obs('i2', 'FAILED', 'r1'));
    // a running report coalesced with the failed one still gets the full evaluation
    await Promise.all([rollouts.evaluateVersion('ver', 'FAILED'), rollouts.evaluateVersion('ver', 'ACTIVE')]);
    expect(reads).toBeGreaterThan(0);
    expect(await statusOf()).toBe('DEGRADING');
  });
});

describe('Revision.progress through the nvcf schema', () => {
  /** The store, counting the reads Revision.progress could multiply. */
  function counting(store: NvcfStore) {
    const calls = { instanceStates: 0, getRevisions: 0 };
    const wrapped: NvcfStore = {
      ...store,
      instanceStates: (specId) => {
        calls.instanceStates++;
        return store.instanceStates(specId);
      },
      getRevisions: (specIds) => {
        calls.getRevisions++;
        return store.getRevisions(specIds);
      },
    };
    return { store: wrapped, calls };
  }
  const refuse = async (): Promise<never> => {
    throw new Error('queries never call ICMS');
  };
  const icms: IcmsClient = { launch: refuse, update: refuse, accepted: refuse, terminate: refuse };

  it('a 1000-instance spec: latest and last applied progress from one instance-states read and one revisions read', async () => {
    const memory = createMemoryNvcfStore();
    const ids = Array.from({ length: 1000 }, (_, i) => `i${i}`);
    await memory.putDeployment(
      { id: 'dep', versionId: 'ver', ncaId: 'nca-a', specIds: ['spec'], createdAt: created },
      [specOf(1000)],
      [
        {
          specId: 'spec',
          latest: rev('r2', { targets: ids }),
          lastApplied: rev('r1', { status: 'APPLIED', targets: ids }),
        },
      ],
    );
    // a rollout under way: 600 done, 300 updating, 100 not yet
    for (const [n, id] of ids.entries()) {
      await memory.recordInstance(
        'spec',
        n < 600
          ? obs(id, 'ACTIVE', 'r2')
          : n < 900
            ? obs(id, 'UPDATING', 'r1', { targetRevisionId: 'r2' })
            : obs(id, 'ACTIVE', 'r1'),
      );
    }
    const { store, calls } = counting(memory);
    const nvcf = new Nvcf(store, icms, loadRegistry(defaultRegistryPath()), { maxConfigurationBytes: 65536 }, 600_000);
    const fields = 'total applied updating failed pending startedAt deadline';
    const result = await execute({
      schema: buildNvcfSchema(nvcf),
      document: parse(
        `{ gpuSpecification(id: "spec") { latestRevision { id progress { ${fields} } } lastAppliedRevision { id progress { ${fields} } } } }`,
      ),
      contextValue: { tenant: 'nca-a', loaders: createLoaders(store) },
    });
    expect(result.errors).toBeUndefined();
    const spec = (
      result.data as {
        gpuSpecification: {
          latestRevision: { progress: RolloutProgress };
          lastAppliedRevision: { progress: RolloutProgress };
        };
      }
    ).gpuSpecification;
    expect(spec.latestRevision.progress).toEqual({
      total: 1000,
      applied: 600,
      updating: 300,
      failed: 0,
      pending: 100,
      startedAt: started,
      deadline,
    });
    expect(counts(spec.lastAppliedRevision.progress)).toEqual({
      total: 1000,
      applied: 400,
      updating: 0,
      failed: 0,
      pending: 600,
    });
    expect(calls).toEqual({ instanceStates: 1, getRevisions: 1 });
  });
});

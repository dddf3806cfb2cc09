/**
 * What the agent publishes about an in-place update, on the simulated cluster: UPDATING names
 * the revision the instance moves to (targetRevisionId) while revisionId stays the one it
 * serves; the transition that ends the move carries no target.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryBus, type Bus, type Consumer } from '@nvcf/bus';
import { allStreams, msgIds, Streams, subjects, type StatusEvent, type UpdateInstancesMessage } from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';
import {
  createSimulatedCluster,
  startAgent,
  type Agent,
  type DesiredInstance,
  type ObservedInstance,
  type SimulatedCluster,
} from '../src/index.js';
import { desiredInstance } from './fixtures.js';

const clusterId = 'cluster-t';
const desired = (instanceId: string, revisionId: string, createdAt: string, values: Record<string, unknown> = {}) =>
  desiredInstance(clusterId, instanceId, revisionId, createdAt, values);
const updateOf = (d: DesiredInstance): UpdateInstancesMessage => ({
  ...d,
  type: 'update',
  updateActionId: `ua-${d.revisionId}`,
  targets: [d.instanceId],
});
/** each event as state, revisionId → targetRevisionId, the way the assertions read */
const brief = (e: StatusEvent) =>
  `${e.state} ${e.revisionId ?? '-'}${e.targetRevisionId ? ` → ${e.targetRevisionId}` : ''}${e.failedRevisionId ? ` ✗ ${e.failedRevisionId}` : ''}`;

describe('agent: the target revision of an update', () => {
  let bus: Bus;
  let driver: SimulatedCluster;
  let agent: Agent | undefined;
  let tail: Consumer;
  let dir: string;
  let events: StatusEvent[];
  const of = (instanceId: string) => events.filter((e) => e.instanceId === instanceId);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'agent-target-'));
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    events = [];
    tail = await bus.tail<StatusEvent>({ stream: Streams.status.name }, (m) => {
      events.push(m.data);
    });
  });
  afterEach(async () => {
    await agent?.stop();
    agent = undefined;
    await tail.stop();
    await bus.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An agent on a simulated cluster whose objects start as `objects` (an agent that died left them). */
  const start = async (objects: Record<string, ObservedInstance> = {}) => {
    const stateFile = path.join(dir, 'cluster.json');
    writeFileSync(stateFile, JSON.stringify(objects));
    driver = createSimulatedCluster({ clusterId, startDelayMs: 10, updateDelayMs: 30, stateFile });
    agent = await startAgent({ bus, driver, backoff: { initialMs: 10, maxMs: 20, factor: 2 }, log: () => {} });
  };
  const create = (d: DesiredInstance) =>
    bus.publish(subjects.create(clusterId), { type: 'create', ...d }, { msgId: msgIds.create(d.instanceId) });
  const update = (d: DesiredInstance) =>
    bus.publish(subjects.update(clusterId), updateOf(d), { msgId: msgIds.update(`ua-${d.revisionId}`, clusterId) });
  const until = (instanceId: string, pred: (e: StatusEvent) => boolean, what: string) =>
    waitUntil(() => of(instanceId).some(pred), { what, timeoutMs: 5000 });

  it('UPDATING: revisionId the old revision, targetRevisionId the new one; the ACTIVE that ends it: the new revisionId, no target', async () => {
    await start();
    const r1 = desired('i1', 'r1', '2026-01-01T00:00:01.000Z');
    await create(r1);
    await until('i1', (e) => e.state === 'ACTIVE', 'ACTIVE on r1');
    await update(desired('i1', 'r2', '2026-01-01T00:00:02.000Z'));
    await until('i1', (e) => e.state === 'ACTIVE' && e.revisionId === 'r2', 'ACTIVE on r2');
    expect(of('i1').map(brief)).toEqual(['STARTING -', 'ACTIVE r1', 'UPDATING r1 → r2', 'ACTIVE r2']);
    // STARTING and ACTIVE carry no target at all: the key is absent, not null
    expect(
      of('i1')
        .filter((e) => e.state !== 'UPDATING')
        .every((e) => !('targetRevisionId' in e)),
    ).toBe(true);
  });

  it('a permanent failure: UPDATING to the revision, then ACTIVE on the old one with the failed revision and no target', async () => {
    await start();
    await create(desired('i1', 'r1', '2026-01-01T00:00:01.000Z'));
    await until('i1', (e) => e.state === 'ACTIVE', 'ACTIVE on r1');
    await update(desired('i1', 'bad', '2026-01-01T00:00:02.000Z', { nvcfSimulate: { failure: 'permanent' } }));
    await until('i1', (e) => e.failedRevisionId === 'bad', 'the failed update');
    expect(of('i1').map(brief)).toEqual(['STARTING -', 'ACTIVE r1', 'UPDATING r1 → bad', 'ACTIVE r1 ✗ bad']);
  });

  it('an update of an instance that never got ready and fails: FAILED names the revision it was moving to', async () => {
    // an agent died while i1 was starting on r1: the object exists, nothing is ready
    const r1 = desired('i1', 'r1', '2026-01-01T00:00:01.000Z');
    await start({ i1: { desired: r1, readyRevisionId: null, reportedState: 'STARTING', lastClock: 1 } });
    await update(desired('i1', 'bad', '2026-01-01T00:00:02.000Z', { nvcfSimulate: { failure: 'permanent' } }));
    await until('i1', (e) => e.state === 'FAILED', 'FAILED');
    expect(of('i1').map(brief)).toEqual(['FAILED - → bad']);
  });

  it('an agent that died mid-update and then gets a newer revision reports UPDATING again, to the newer one', async () => {
    // the dead agent had reported UPDATING r1 → r2 and started applying r2 (its apply wrote r2 into desired)
    const r2 = desired('i1', 'r2', '2026-01-01T00:00:02.000Z');
    await start({ i1: { desired: r2, readyRevisionId: 'r1', reportedState: 'UPDATING', lastClock: 1 } });
    await update(desired('i1', 'r3', '2026-01-01T00:00:03.000Z'));
    await until('i1', (e) => e.state === 'ACTIVE', 'ACTIVE on r3');
    expect(of('i1').map(brief)).toEqual(['UPDATING r1 → r3', 'ACTIVE r3']);
    expect(of('i1')[0].previousState).toBe('UPDATING');
  });

  it('the same revision redelivered to an agent that died mid-update: no second UPDATING', async () => {
    const r2 = desired('i1', 'r2', '2026-01-01T00:00:02.000Z');
    await start({ i1: { desired: r2, readyRevisionId: 'r1', reportedState: 'UPDATING', lastClock: 1 } });
    await update(r2);
    await until('i1', (e) => e.state === 'ACTIVE', 'ACTIVE on r2');
    expect(of('i1').map(brief)).toEqual(['ACTIVE r2']);
  });
});

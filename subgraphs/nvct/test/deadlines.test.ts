import { createMemoryBus, type Bus, type BusMessage } from '@nvcf/bus';
import { Streams, allStreams, subjects, type TaskStatusEvent } from '@nvcf/contracts';
import { createMemoryTaskStore, sweepDeadlines, transition, type TaskDeps } from '../src/index.js';
import { announce } from '../src/lifecycle.js';
import { queuedTask } from './fixtures.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('task deadlines, on a fake clock', () => {
  let bus: Bus;
  let deps: TaskDeps;
  let nowMs: number;
  const at = (ms: number) => {
    nowMs = T0 + ms;
  };
  const events: BusMessage<TaskStatusEvent>[] = [];
  beforeEach(async () => {
    events.length = 0;
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    await bus.tail<TaskStatusEvent>({ stream: Streams.taskStatus.name, fromSeq: 1 }, (m) => events.push(m));
    nowMs = T0;
    deps = { store: createMemoryTaskStore(), bus, clock: () => new Date(nowMs) };
  });
  afterEach(() => bus.dispose());

  // maxQueuedDuration and maxRuntimeDuration are PT1H in the fixture
  const queued = async (id: string, ncaId = 'nca-a') => {
    const t = queuedTask(id, ncaId, new Date(nowMs).toISOString());
    await deps.store.create(t);
    await announce(deps, t);
    return t;
  };
  const statusOf = async (id: string) => (await deps.store.get([id]))[0]!.status;
  const go = (id: string, status: 'LAUNCHED' | 'RUNNING' | 'COMPLETED') =>
    transition(deps, id, () => ({ status, message: null }));

  it('a task still queued past maxQueuedDuration ends EXCEEDED_MAX_QUEUED_DURATION; not a moment before', async () => {
    await queued('q1');
    at(3_600_000);
    expect(await sweepDeadlines(deps)).toEqual([]);
    expect(await statusOf('q1')).toBe('QUEUED');
    at(3_600_001);
    const [ended] = await sweepDeadlines(deps);
    expect(ended).toMatchObject({
      id: 'q1',
      status: 'EXCEEDED_MAX_QUEUED_DURATION',
      endedAt: new Date(nowMs).toISOString(),
      message: 'not running within maxQueuedDuration PT1H of its creation',
    });
    // ended: never launched afterwards
    expect(await go('q1', 'LAUNCHED')).toBeNull();
    expect(await statusOf('q1')).toBe('EXCEEDED_MAX_QUEUED_DURATION');
  });

  it('a launched task that never starts running is held to maxQueuedDuration too', async () => {
    await queued('l1');
    await go('l1', 'LAUNCHED');
    at(3_600_001);
    expect((await sweepDeadlines(deps)).map((t) => t.status)).toEqual(['EXCEEDED_MAX_QUEUED_DURATION']);
  });

  it('a task running past maxRuntimeDuration, counted from when it started running, ends EXCEEDED_MAX_RUNTIME', async () => {
    await queued('r1');
    at(50 * 60_000);
    await go('r1', 'LAUNCHED');
    await go('r1', 'RUNNING');
    // past the queue deadline from creation, but it is running: only its runtime counts now
    at(50 * 60_000 + 3_600_000);
    expect(await sweepDeadlines(deps)).toEqual([]);
    at(50 * 60_000 + 3_600_001);
    const [ended] = await sweepDeadlines(deps);
    expect(ended).toMatchObject({
      status: 'EXCEEDED_MAX_RUNTIME',
      message: expect.stringMatching(/maxRuntimeDuration PT1H/),
    });
    expect(ended.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'EXCEEDED_MAX_RUNTIME']);
  });

  it('a task that completed before the sweep is left as it is', async () => {
    await queued('c1');
    await go('c1', 'LAUNCHED');
    await go('c1', 'RUNNING');
    await go('c1', 'COMPLETED');
    at(10 * 3_600_000);
    expect(await sweepDeadlines(deps)).toEqual([]);
    expect(await statusOf('c1')).toBe('COMPLETED');
  });

  it("announces every transition on its own tenant's subject, in order, with the previous status", async () => {
    await queued('e1', 'nca-a');
    await queued('e2', 'nca-b');
    await go('e1', 'LAUNCHED');
    at(3_600_001);
    await sweepDeadlines(deps);
    const ofA = events.filter((m) => m.subject.startsWith('Status.NVCT.nca-a.'));
    expect(ofA.map((m) => [m.subject, m.data.seq, m.data.status, m.data.previousStatus])).toEqual([
      [subjects.taskStatus('nca-a', 'e1'), 1, 'QUEUED', null],
      [subjects.taskStatus('nca-a', 'e1'), 2, 'LAUNCHED', 'QUEUED'],
      [subjects.taskStatus('nca-a', 'e1'), 3, 'EXCEEDED_MAX_QUEUED_DURATION', 'LAUNCHED'],
    ]);
    expect(
      events.filter((m) => m.data.ncaId === 'nca-b').every((m) => m.subject.startsWith('Status.NVCT.nca-b.')),
    ).toBe(true);
  });

  it('a cancel and a deadline racing leave exactly one terminal transition', async () => {
    await queued('x1');
    at(3_600_001);
    const [swept, canceled] = await Promise.all([
      sweepDeadlines(deps),
      transition(deps, 'x1', () => ({ status: 'CANCELED', message: 'canceled by the owner' })),
    ]);
    const [t] = await deps.store.get(['x1']);
    expect(t!.events.filter((e) => e.status !== 'QUEUED')).toHaveLength(1);
    expect(swept.length + (canceled ? 1 : 0)).toBe(1);
  });
});

import { createMemoryBus, type Bus, type BusMessage } from '@nvcf/bus';
import { Streams, allStreams, type TaskStatusEvent, type TaskWorkMessage } from '@nvcf/contracts';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import {
  createMemoryTaskStore,
  placeQueued,
  redeliver,
  transition,
  unannounced,
  type PlaceTask,
  type TaskDeps,
} from '../src/index.js';
import { deliver } from '../src/lifecycle.js';
import { queuedTask } from './fixtures.js';

const registry = loadRegistry(defaultRegistryPath());
const onC1: PlaceTask = async () => ({ clusterId: 'c1' });

/** The bus, except that its next `failures` publishes fail as an unreachable server's would. */
function failing(bus: Bus): Bus & { failNext(n: number): void; attempts: number } {
  let failures = 0;
  const flaky = Object.assign(Object.create(bus) as Bus, {
    attempts: 0,
    failNext(n: number) {
      failures = n;
    },
    publish(...args: Parameters<Bus['publish']>) {
      flaky.attempts++;
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error('CONNECTION_CLOSED'));
      }
      return bus.publish(...args);
    },
  });
  return flaky;
}

describe('task transitions reach the bus at least once', () => {
  let bus: Bus;
  let flaky: ReturnType<typeof failing>;
  let deps: TaskDeps;
  const events: BusMessage<TaskStatusEvent>[] = [];
  const work: TaskWorkMessage[] = [];
  beforeEach(async () => {
    events.length = 0;
    work.length = 0;
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    await bus.tail<TaskStatusEvent>({ stream: Streams.taskStatus.name, fromSeq: 1 }, (m) => events.push(m));
    await bus.tail<TaskWorkMessage>({ stream: Streams.taskWork.name, fromSeq: 1 }, (m) => work.push(m.data));
    flaky = failing(bus);
    deps = { store: createMemoryTaskStore(), bus: flaky, clock: () => new Date() };
  });
  afterEach(() => bus.dispose());

  const get = async (id: string) => (await deps.store.get([id]))[0]!;
  const created = async (id: string) => {
    const t = { ...queuedTask(id, 'nca-a', new Date().toISOString()), announcedSeq: 0 };
    await deps.store.create(t);
    await deliver(deps, t);
  };
  const cancel = (id: string) => transition(deps, id, () => ({ status: 'CANCELED', message: 'canceled by the owner' }));

  it('publishes a cancel whose publishes failed, and its stop, on the next pass; each once', async () => {
    await created('t1');
    await placeQueued(deps, onC1, registry);
    flaky.failNext(2);
    expect((await cancel('t1'))?.status).toBe('CANCELED');
    expect(events.map((e) => e.data.status)).toEqual(['QUEUED', 'LAUNCHED']);
    expect(work).toEqual([]);
    expect(unannounced(await get('t1'))).toBe(true);

    expect(await redeliver(deps)).toBe(1);
    expect(events.map((e) => [e.data.status, e.data.previousStatus])).toEqual([
      ['QUEUED', null],
      ['LAUNCHED', 'QUEUED'],
      ['CANCELED', 'LAUNCHED'],
    ]);
    expect(work).toEqual([{ type: 'stop-task', ncaId: 'nca-a', taskId: 't1', clusterId: 'c1', reason: 'CANCELED' }]);
    expect(unannounced(await get('t1'))).toBe(false);
    // announced: the next pass sends nothing
    const before = flaky.attempts;
    expect(await redeliver(deps)).toBe(0);
    expect(flaky.attempts).toBe(before);
  });

  it('publishes every transition stored while the bus was down, in order, once it is back', async () => {
    await created('t1');
    flaky.failNext(Infinity);
    await placeQueued(deps, onC1, registry);
    await cancel('t1');
    await expect(redeliver(deps)).rejects.toThrow('CONNECTION_CLOSED');
    expect(events.map((e) => e.data.status)).toEqual(['QUEUED']);
    flaky.failNext(0);
    expect(await redeliver(deps)).toBe(1);
    expect(events.map((e) => e.data.seq)).toEqual([1, 2, 3]);
    expect(work.map((m) => m.type)).toEqual(['stop-task']);
  });

  it('publishes a created task whose first publish failed', async () => {
    flaky.failNext(1);
    await created('t1');
    expect(events).toEqual([]);
    expect(await redeliver(deps)).toBe(1);
    expect(events.map((e) => e.data.status)).toEqual(['QUEUED']);
  });

  it('leaves a task stored before announcements were tracked alone, and tracks its next transition', async () => {
    const legacy = queuedTask('old', 'nca-a', new Date().toISOString());
    await deps.store.create(legacy);
    expect(await redeliver(deps)).toBe(0);
    flaky.failNext(1);
    await cancel('old');
    expect(await redeliver(deps)).toBe(1);
    // only what was not announced when it was stored: its QUEUED was
    expect(events.map((e) => e.data.status)).toEqual(['CANCELED']);
  });

  it('stops a task canceled while ICMS placed it on that cluster, though the bus was down then', async () => {
    await created('t1');
    const racing: PlaceTask = async () => {
      await cancel('t1');
      // the cancel was announced; the bus goes down before the stop to where ICMS sent the run
      flaky.failNext(Infinity);
      return { clusterId: 'c1' };
    };
    expect(await placeQueued(deps, racing, registry)).toBe(0);
    expect(work).toEqual([]);
    expect(await get('t1')).toMatchObject({ status: 'CANCELED', clusterId: 'c1' });
    flaky.failNext(0);
    expect(await redeliver(deps)).toBe(1);
    expect(work).toEqual([{ type: 'stop-task', ncaId: 'nca-a', taskId: 't1', clusterId: 'c1', reason: 'CANCELED' }]);
    // the repeated end is a duplicate the stream dropped
    expect(events.map((e) => e.data.status)).toEqual(['QUEUED', 'CANCELED']);
  });
});

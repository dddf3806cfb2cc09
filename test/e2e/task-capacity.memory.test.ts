/**
 * A task waits for GPUs: while every cluster that could take it is full it stays QUEUED, and
 * the pass after a workload there ends places it; past its maxQueuedDuration it ends like any
 * task no cluster took. nvct's passes run on a fake clock against ICMS's server (memory
 * backends), which learns the tasks' ends from nvct's status stream as it does in a system.
 */
import { randomBytes } from 'node:crypto';
import { createMemoryBus, type Bus } from '@nvcf/bus';
import { allStreams, type TaskReport } from '@nvcf/contracts';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { createIcmsServer, createMemoryIcmsStore, type IcmsStore } from '@nvcf/subgraph-icms';
import {
  applyReport,
  createMemoryTaskStore,
  httpPlaceTask,
  placeQueued,
  sweepDeadlines,
  type PlaceTask,
  type TaskDeps,
} from '@nvcf/subgraph-nvct';
import { waitUntil } from '@nvcf/testing';
import { queuedTask } from '../../subgraphs/nvct/test/fixtures.js';

const registry = loadRegistry(defaultRegistryPath());
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;

describe('a task waits for GPU capacity', () => {
  let bus: Bus & AsyncDisposable;
  let icmsStore: IcmsStore;
  let icms: AsyncDisposable;
  let place: PlaceTask;
  let deps: TaskDeps;
  let nowMs: number;

  beforeEach(async () => {
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    icmsStore = createMemoryIcmsStore();
    const secret = randomBytes(32).toString('base64url');
    const server = await createIcmsServer({
      store: icmsStore,
      bus,
      secret,
      port: 0,
      host: '127.0.0.1',
      // one L40S: one task at a time
      clusters: [
        {
          id: 'c1',
          name: 'one-gpu',
          ncaId: 'provider',
          authorizedNcaIds: ['nca-a'],
          attributes: [],
          regions: [],
          gpus: [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'], capacity: 1 }],
        },
      ],
    });
    icms = server;
    place = httpPlaceTask(() => server.url, secret);
    nowMs = T0;
    deps = { store: createMemoryTaskStore(), bus, clock: () => new Date(nowMs) };
  });
  afterEach(async () => {
    await icms[Symbol.asyncDispose]();
    await bus[Symbol.asyncDispose]();
  });

  const create = (id: string, maxQueuedDuration = 'PT1H') =>
    deps.store.create(queuedTask(id, 'nca-a', new Date(nowMs).toISOString(), { maxQueuedDuration }));
  const status = async (id: string) => (await deps.store.get([id]))[0]!.status;
  const report = (taskId: string, s: TaskReport['status']) =>
    applyReport(deps, {
      type: 'task-report',
      ncaId: 'nca-a',
      taskId,
      clusterId: 'c1',
      status: s,
      at: new Date(nowMs).toISOString(),
      message: null,
    });
  /** one pass of nvct's sweep: deadlines, then placement */
  const pass = async () => {
    await sweepDeadlines(deps);
    return placeQueued(deps, place, registry);
  };

  it('stays QUEUED while the cluster is full and is placed once the task holding it ends', async () => {
    await create('t1');
    await create('t2');
    expect(await pass()).toBe(1);
    expect([await status('t1'), await status('t2')]).toEqual(['LAUNCHED', 'QUEUED']);

    nowMs += 10 * MINUTE;
    await report('t1', 'RUNNING');
    expect(await pass()).toBe(0);
    expect(await status('t2')).toBe('QUEUED');

    await report('t1', 'COMPLETED');
    await waitUntil(async () => (await icmsStore.getTask('t1'))?.ended, { what: 'ICMS saw t1 end' });
    expect(await pass()).toBe(1);
    expect(await status('t2')).toBe('LAUNCHED');
    expect(await icmsStore.getTask('t2')).toMatchObject({ clusterId: 'c1', gpus: { name: 'L40S', count: 1 } });
  });

  it('gives the freed GPU to the task that has waited longest', async () => {
    await create('holder');
    expect(await pass()).toBe(1);
    // stored in the other order than created: the pass goes by creation
    nowMs = T0 + 2 * MINUTE;
    await create('younger');
    nowMs = T0 + MINUTE;
    await create('older');
    nowMs = T0 + 3 * MINUTE;
    expect(await pass()).toBe(0);
    await report('holder', 'COMPLETED');
    await waitUntil(async () => (await icmsStore.getTask('holder'))?.ended, { what: 'ICMS saw the holder end' });
    expect(await pass()).toBe(1);
    expect([await status('older'), await status('younger')]).toEqual(['LAUNCHED', 'QUEUED']);
  });

  it('ends EXCEEDED_MAX_QUEUED_DURATION when no GPU frees in time, and is never placed after', async () => {
    await create('t1');
    await create('t2', 'PT30M');
    expect(await pass()).toBe(1);
    await report('t1', 'RUNNING');

    nowMs += 31 * MINUTE;
    expect(await pass()).toBe(0);
    expect(await status('t2')).toBe('EXCEEDED_MAX_QUEUED_DURATION');

    await report('t1', 'COMPLETED');
    await waitUntil(async () => (await icmsStore.getTask('t1'))?.ended, { what: 'ICMS saw t1 end' });
    expect(await pass()).toBe(0);
    expect(await icmsStore.getTask('t2')).toBeNull();
  });
});

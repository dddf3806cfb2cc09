import { fail } from '@nvcf/errors';
import { createMemoryBus, type Bus } from '@nvcf/bus';
import { Streams, allStreams, type TaskPlacement, type TaskReport, type TaskWorkMessage } from '@nvcf/contracts';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import {
  applyReport,
  createMemoryTaskStore,
  placeQueued,
  sweepDeadlines,
  transition,
  unannounced,
  type PlaceTask,
  type TaskDeps,
} from '../src/index.js';
import { queuedTask } from './fixtures.js';

const registry = loadRegistry(defaultRegistryPath());
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('placing tasks and applying their agents’ reports', () => {
  let bus: Bus;
  let deps: TaskDeps;
  let nowMs: number;
  const work: TaskWorkMessage[] = [];
  const placed: TaskPlacement[] = [];
  /** places every task on c1 (without sending anything: ICMS sends the run) */
  const onC1: PlaceTask = async (_tenant, p) => {
    placed.push(p);
    return { clusterId: 'c1' };
  };
  beforeEach(async () => {
    work.length = 0;
    placed.length = 0;
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    await bus.tail<TaskWorkMessage>({ stream: Streams.taskWork.name, fromSeq: 1 }, (m) => work.push(m.data));
    nowMs = T0;
    deps = { store: createMemoryTaskStore(), bus, clock: () => new Date(nowMs) };
  });
  afterEach(() => bus.dispose());

  const queued = (id: string, ncaId = 'nca-a') =>
    deps.store.create(queuedTask(id, ncaId, new Date(nowMs).toISOString()));
  const get = async (id: string) => (await deps.store.get([id]))[0]!;
  const report = (taskId: string, status: TaskReport['status'], message: string | null = null): TaskReport => ({
    type: 'task-report',
    ncaId: 'nca-a',
    taskId,
    clusterId: 'c1',
    status,
    at: new Date(nowMs).toISOString(),
    message,
  });

  it('launches a placed task on its cluster, with the placement and run ICMS needs', async () => {
    await queued('t1');
    expect(await placeQueued(deps, onC1, registry)).toBe(1);
    expect(await get('t1')).toMatchObject({ status: 'LAUNCHED', clusterId: 'c1' });
    expect(placed[0]).toMatchObject({
      placement: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge', attributes: [], singleTenant: false },
      run: { taskId: 't1', ncaId: 'nca-a', workload: { kind: 'container', image: 'nvcr.io/nca-a/train:1' } },
    });
    // launched: not offered again
    expect(await placeQueued(deps, onC1, registry)).toBe(0);
    expect(placed).toHaveLength(1);
  });

  it('keeps a task no cluster can take QUEUED and offers it again on the next pass', async () => {
    await queued('t1');
    const none: PlaceTask = async () => {
      throw fail('NO_ELIGIBLE_CLUSTER', 'no eligible cluster');
    };
    expect(await placeQueued(deps, none, registry)).toBe(0);
    expect((await get('t1')).status).toBe('QUEUED');
    expect(await placeQueued(deps, onC1, registry)).toBe(1);
  });

  it('stops a task on the cluster it was sent to when it was canceled while being placed', async () => {
    await queued('t1');
    const racing: PlaceTask = async (tenant, p) => {
      await transition(deps, 't1', () => ({ status: 'CANCELED', message: 'canceled by the owner' }));
      return onC1(tenant, p);
    };
    expect(await placeQueued(deps, racing, registry)).toBe(0);
    expect((await get('t1')).status).toBe('CANCELED');
    expect(work).toEqual([{ type: 'stop-task', ncaId: 'nca-a', taskId: 't1', clusterId: 'c1', reason: 'CANCELED' }]);
  });

  it('still stops a canceled task on its cluster when its status event could not be published', async () => {
    await queued('t1');
    await placeQueued(deps, onC1, registry);
    const statusDown: Bus = Object.assign(Object.create(bus) as Bus, {
      publish: (subject: string, ...rest: unknown[]) =>
        subject.startsWith('Status.NVCT.')
          ? Promise.reject(new Error('status stream unavailable'))
          : (bus.publish as (...a: unknown[]) => Promise<unknown>)(subject, ...rest),
    });
    // stored: the cancel is the caller's, and the sweep publishes its event later
    const canceled = await transition({ ...deps, bus: statusDown }, 't1', () => ({
      status: 'CANCELED',
      message: 'canceled by the owner',
    }));
    expect(canceled?.status).toBe('CANCELED');
    expect((await get('t1')).status).toBe('CANCELED');
    expect(unannounced(await get('t1'))).toBe(true);
    expect(work).toEqual([{ type: 'stop-task', ncaId: 'nca-a', taskId: 't1', clusterId: 'c1', reason: 'CANCELED' }]);
  });

  it('applies reports by compare-and-set: repeated or late ones change nothing', async () => {
    await queued('t1');
    await placeQueued(deps, onC1, registry);
    expect((await applyReport(deps, report('t1', 'RUNNING')))?.status).toBe('RUNNING');
    expect(await applyReport(deps, report('t1', 'RUNNING'))).toBeNull();
    expect((await applyReport(deps, report('t1', 'ERRORED', 'exit 3')))?.message).toBe('exit 3');
    expect(await applyReport(deps, report('t1', 'RUNNING'))).toBeNull();
    expect(await applyReport(deps, report('t1', 'COMPLETED'))).toBeNull();
    expect((await get('t1')).events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'ERRORED']);
    // the agent ended it: nothing to stop
    expect(work).toEqual([]);
  });

  it('launches a task whose agent reported before its placement was stored', async () => {
    await queued('t1');
    expect((await applyReport(deps, report('t1', 'COMPLETED', 'done')))?.status).toBe('COMPLETED');
    expect(await get('t1')).toMatchObject({ clusterId: 'c1', message: 'done' });
    // the end overtook RUNNING too: every state it went through is shown
    expect((await get('t1')).events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    expect(await placeQueued(deps, onC1, registry)).toBe(0);
  });

  it("ignores a report naming another tenant's task", async () => {
    await queued('t1', 'nca-b');
    expect(await applyReport(deps, report('t1', 'RUNNING'))).toBeNull();
    expect((await get('t1')).status).toBe('QUEUED');
  });

  it('tells the agent to stop a task past maxRuntimeDuration', async () => {
    await queued('t1');
    await placeQueued(deps, onC1, registry);
    await applyReport(deps, report('t1', 'RUNNING'));
    nowMs = T0 + 3_600_001;
    expect((await sweepDeadlines(deps)).map((t) => t.status)).toEqual(['EXCEEDED_MAX_RUNTIME']);
    expect(work).toEqual([
      { type: 'stop-task', ncaId: 'nca-a', taskId: 't1', clusterId: 'c1', reason: 'EXCEEDED_MAX_RUNTIME' },
    ]);
  });
});

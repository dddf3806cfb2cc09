/** ICMS places a task like an instance and sends it to the chosen cluster's agent; it refuses what no cluster can take. */
import { createMemoryBus } from '@nvcf/bus';
import {
  allStreams,
  msgIds,
  subjects,
  type RunTaskMessage,
  type TaskPlacement,
  type TaskStatusEvent,
} from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';
import { TENANCY_REFUSAL, type IcmsStore } from '../src/index.js';
import { consumeTaskEnds } from '../src/status-consumer.js';
import { handlersWith } from './fixtures.js';

const setup = () =>
  handlersWith<RunTaskMessage>([
    { id: 'c1', gpus: [{ name: 'L40S', instanceTypes: ['it-1'] }], regions: ['us-east'] },
    { id: 'c2', gpus: [{ name: 'H100', instanceTypes: ['it-1'] }], regions: ['eu-west'] },
  ]);

const task = (gpu: string, ncaId = 'nca-a'): TaskPlacement => ({
  placement: { gpu, instanceType: 'it-1', clusters: [], regions: [], attributes: [], singleTenant: false },
  run: {
    ncaId,
    taskId: 't1',
    gpu,
    instanceType: 'it-1',
    workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
    configuration: null,
    terminationGracePeriodDuration: 'PT30S',
  },
});

describe('placeTask', () => {
  it('sends the task to the one cluster with its GPU, as a run message with a stable id', async () => {
    const { published, icms } = await setup();
    expect(await icms.placeTask('nca-a', task('H100'))).toEqual({ clusterId: 'c2' });
    expect(published).toEqual([
      {
        subject: 'Task.NVCA.c2',
        msgId: 'run-task:t1',
        msg: expect.objectContaining({ type: 'run-task', taskId: 't1', clusterId: 'c2', ncaId: 'nca-a' }),
      },
    ]);
  });

  it('refuses a task no cluster can take, sending nothing', async () => {
    const { published, icms } = await setup();
    await expect(icms.placeTask('nca-a', task('B200'))).rejects.toMatchObject({
      extensions: { code: 'NO_ELIGIBLE_CLUSTER' },
    });
    expect(published).toEqual([]);
  });

  it("refuses another tenant's task", async () => {
    const { icms } = await setup();
    await expect(icms.placeTask('nca-a', task('L40S', 'nca-b'))).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });
});

describe('placeTask: an operator task dedicates its cluster to its tenant', () => {
  const both = { authorizedNcaIds: ['nca-a', 'nca-b'] };
  const L40S = { id: 'c1', gpus: [{ name: 'L40S', instanceTypes: ['it-1'] }], regions: ['us-east'], ...both };
  const of = (ncaId: string, taskId: string, singleTenant: boolean): TaskPlacement => {
    const t = task('L40S', ncaId);
    return { placement: { ...t.placement, singleTenant }, run: { ...t.run, ncaId, taskId } };
  };
  const dedicatedTo = async (store: IcmsStore, id = 'c1') => (await store.getClusters([id]))[0]?.dedicatedTo ?? null;
  const refused = { extensions: { code: 'NO_ELIGIBLE_CLUSTER' } };

  /** ICMS's reader of nvct's task status stream, on a memory bus the test publishes task ends on */
  async function withTaskEnds(store: IcmsStore) {
    const bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    // the ends the reader stored: whether it read one, even when no placement is stored to show it
    const stored: string[] = [];
    const spied: IcmsStore = Object.assign(Object.create(store) as IcmsStore, {
      endTask: async (id: string) => {
        await store.endTask(id);
        stored.push(id);
      },
    });
    const reader = await consumeTaskEnds(spied, bus, 'icms');
    let seq = 0;
    const end = async (ncaId: string, taskId: string, status: TaskStatusEvent['status'] = 'COMPLETED') => {
      const e: TaskStatusEvent = {
        type: 'task-status',
        ncaId,
        taskId,
        seq: ++seq,
        status,
        previousStatus: 'RUNNING',
        at: new Date().toISOString(),
        message: null,
      };
      await bus.publish(subjects.taskStatus(ncaId, taskId), e, { msgId: msgIds.taskStatus(e) });
    };
    const dispose = async () => {
      await reader.stop();
      await bus.dispose();
    };
    return { end, stored, [Symbol.asyncDispose]: dispose };
  }

  it("refuses other tenants' tasks on the cluster while the task runs, and frees it when the task ends", async () => {
    const { store, icms } = await handlersWith<RunTaskMessage>([L40S]);
    await using ends = await withTaskEnds(store);
    expect(await icms.placeTask('nca-a', of('nca-a', 'op-1', true))).toEqual({ clusterId: 'c1' });
    expect(await dedicatedTo(store)).toBe('nca-a');
    await expect(icms.placeTask('nca-b', of('nca-b', 'b-1', false))).rejects.toMatchObject({
      ...refused,
      message: expect.stringContaining(TENANCY_REFUSAL.dedicated),
    });
    // its own tenant's work still goes there
    expect(await icms.placeTask('nca-a', of('nca-a', 'a-2', false))).toEqual({ clusterId: 'c1' });

    // a task that is not an operator task ends: the operator task still holds the lock
    await ends.end('nca-a', 'a-2');
    await ends.end('nca-a', 'op-1', 'CANCELED');
    await waitUntil(async () => (await dedicatedTo(store)) === null, { what: 'the lock released' });
    expect(await icms.placeTask('nca-b', of('nca-b', 'b-1', false))).toEqual({ clusterId: 'c1' });
  });

  it('keeps the lock until the last operator task of the tenant there ends', async () => {
    const { store, icms } = await handlersWith<RunTaskMessage>([L40S]);
    await using ends = await withTaskEnds(store);
    await icms.placeTask('nca-a', of('nca-a', 'op-1', true));
    await icms.placeTask('nca-a', of('nca-a', 'op-2', true));
    await ends.end('nca-a', 'op-1');
    await waitUntil(async () => (await store.getTask('op-1'))?.ended, { what: 'op-1 ended' });
    expect(await dedicatedTo(store)).toBe('nca-a');
    await ends.end('nca-a', 'op-2', 'ERRORED');
    await waitUntil(async () => (await dedicatedTo(store)) === null, { what: 'the lock released' });
  });

  it('does not dedicate the cluster to a task that is not an operator task', async () => {
    const { store, icms } = await handlersWith<RunTaskMessage>([L40S]);
    await icms.placeTask('nca-a', of('nca-a', 'a-1', false));
    expect(await dedicatedTo(store)).toBeNull();
    expect(await icms.placeTask('nca-b', of('nca-b', 'b-1', false))).toEqual({ clusterId: 'c1' });
  });

  it("refuses an operator task a cluster where another tenant's task runs, as for an instance", async () => {
    const { store, icms, published } = await handlersWith<RunTaskMessage>([L40S]);
    await icms.placeTask('nca-a', of('nca-a', 'a-1', false));
    await expect(icms.placeTask('nca-b', of('nca-b', 'op-b', true))).rejects.toMatchObject({
      ...refused,
      message: expect.stringContaining(TENANCY_REFUSAL.shared),
    });
    expect(await dedicatedTo(store)).toBeNull();
    expect(published.map((p) => p.msg.taskId)).toEqual(['a-1']);
  });

  it('does not hold the lock for an operator task whose end was seen before its placement was stored', async () => {
    const { store, icms } = await handlersWith<RunTaskMessage>([L40S]);
    await using ends = await withTaskEnds(store);
    await ends.end('nca-a', 'op-1', 'CANCELED');
    await waitUntil(() => ends.stored.includes('op-1'), { what: 'the end read before any placement' });
    expect(await store.getTask('op-1')).toBeNull();
    await icms.placeTask('nca-a', of('nca-a', 'op-1', true));
    expect(await store.getTask('op-1')).toMatchObject({ ended: true });
    expect(await dedicatedTo(store)).toBeNull();
  });
});

/** ICMS places a task like an instance and sends it to the chosen cluster's agent; it refuses what no cluster can take. */
import type { RunTaskMessage, TaskPlacement } from '@nvcf/contracts';
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

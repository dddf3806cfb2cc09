import type { TaskRecord } from '../src/index.js';

/** A queued container task of `ncaId`, created at `createdAt`. */
export function queuedTask(
  id: string,
  ncaId: string,
  createdAt: string,
  overrides: Partial<Omit<TaskRecord, 'workloadType'>> = {},
): TaskRecord {
  return {
    id,
    ncaId,
    name: `task-${id}`,
    workloadType: 'CONTAINER',
    containerImage: 'nvcr.io/nca-a/train:1',
    containerArgs: [],
    containerEnvironment: {},
    status: 'QUEUED',
    configuration: null,
    gpu: 'L40S',
    instanceType: 'gl40s_1.br25_2xlarge',
    clusters: [],
    regions: [],
    maxRuntimeDuration: 'PT1H',
    maxQueuedDuration: 'PT1H',
    terminationGracePeriodDuration: 'PT30S',
    createdAt,
    runningAt: null,
    endedAt: null,
    message: null,
    seq: 1,
    events: [{ seq: 1, at: createdAt, status: 'QUEUED', message: null }],
    ...overrides,
  };
}

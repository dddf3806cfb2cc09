/**
 * GPU capacity: a cluster holds as many GPUs of each kind as its record says, and live instances
 * and tasks not ended hold theirs. A full cluster is refused with its count, the one with most
 * free GPUs is preferred, and a record without a capacity is never full.
 */
import type { LaunchSpec, PlacementRequest, RunTaskMessage, TaskPlacement } from '@nvcf/contracts';
import type { ClusterRecord } from '../src/index.js';
import { graphql } from 'graphql';
import { buildIcmsSchema } from '../src/index.js';
import { eligibleClusters, type Occupant } from '../src/placement.js';
import { createLoaders } from '../src/resolvers.js';
import { handlersWith } from './fixtures.js';

const EIGHT = 'gh100_8.br20_16xlarge';
const ONE = 'gh100_1.br20_2xlarge';

const cluster = (id: string, capacity?: number): ClusterRecord => ({
  id,
  name: id,
  ncaId: 'provider',
  authorizedNcaIds: ['nca-a'],
  attributes: [],
  regions: [],
  gpus: [{ name: 'H100', instanceTypes: [ONE, EIGHT], capacity, gpusPerInstance: { [EIGHT]: 8 } }],
});

const request = (instanceType = ONE): PlacementRequest => ({
  gpu: 'H100',
  instanceType,
  clusters: [],
  regions: [],
  attributes: [],
  singleTenant: false,
});

/** `n` workloads holding one H100 each */
const using = (n: number, gpus = { name: 'H100', count: 1 }): Occupant[] =>
  Array.from({ length: n }, () => ({ ncaId: 'nca-a', gpus }));

const place = (clusters: ClusterRecord[], live: Record<string, Occupant[]>, instanceType = ONE) =>
  eligibleClusters(clusters, new Map(Object.entries(live)), 'nca-a', request(instanceType), 'test').map((c) => c.id);

describe('eligibleClusters: GPU capacity', () => {
  it('refuses a full cluster, saying how many of its GPUs are in use', () => {
    expect(() => place([cluster('c1', 8)], { c1: using(8) })).toThrow(
      expect.objectContaining({
        message: 'test: no eligible cluster for H100/gh100_1.br20_2xlarge (c1: full: 8 of 8 H100 in use)',
        extensions: expect.objectContaining({ code: 'NO_ELIGIBLE_CLUSTER' }),
      }),
    );
  });

  it('counts the GPUs an instance type takes: eight do not fit in four free', () => {
    expect(() => place([cluster('c1', 8)], { c1: using(4) }, EIGHT)).toThrow(
      `c1: full: 4 of 8 H100 in use, ${EIGHT} needs 8`,
    );
    expect(place([cluster('c1', 8)], { c1: using(4) })).toEqual(['c1']);
    expect(() => place([cluster('c1', 4)], {}, EIGHT)).toThrow(
      `c1: too small: ${EIGHT} needs 8 H100, the cluster has 4`,
    );
  });

  it('counts only GPUs of the requested kind', () => {
    expect(place([cluster('c1', 1)], { c1: using(3, { name: 'L40S', count: 1 }) })).toEqual(['c1']);
  });

  it('prefers the cluster with most free GPUs, then the least loaded', () => {
    const clusters = [cluster('c1', 8), cluster('c2', 16), cluster('c3', 16)];
    // c2 has 6 free, c1 7, c3 8
    expect(place(clusters, { c1: using(1), c2: using(10), c3: using(8) })).toEqual(['c3', 'c1', 'c2']);
  });

  it('never finds a cluster of unknown capacity full (a record from before capacity), and prefers it', () => {
    expect(place([cluster('c1', 8), cluster('old')], { old: using(500), c1: using(0) })).toEqual(['old', 'c1']);
    // two of unknown capacity: the least loaded first, as before capacity
    expect(place([cluster('a'), cluster('b')], { a: using(3), b: using(1) })).toEqual(['b', 'a']);
  });

  it('counts a workload stored without its GPUs (before the upgrade) as one of each kind', () => {
    expect(() => place([cluster('c1', 2)], { c1: [{ ncaId: 'nca-a' }, { ncaId: 'nca-a' }] })).toThrow(
      'c1: full: 2 of 2 H100 in use',
    );
  });
});

const spec = (count: number, instanceType = ONE, id = 'spec'): LaunchSpec => ({
  ref: { ncaId: 'nca-a', functionId: 'fn', versionId: 'ver', gpuSpecificationId: id },
  placement: request(instanceType),
  count,
  revisionId: 'rev-1',
  revisionCreatedAt: '2026-01-01T00:00:00.000Z',
  workload: { kind: 'helm', chart: 'oci://r/echo-1.0.0.tgz', serviceName: 'echo', values: {} },
});

const task = (taskId: string, instanceType = ONE): TaskPlacement => ({
  placement: request(instanceType),
  run: {
    ncaId: 'nca-a',
    taskId,
    gpu: 'H100',
    instanceType,
    workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
    configuration: null,
    terminationGracePeriodDuration: 'PT30S',
  },
});

describe('ICMS places within capacity', () => {
  const refused = (message: string) => ({
    extensions: { code: 'NO_ELIGIBLE_CLUSTER' },
    message: expect.stringContaining(message),
  });

  it('launches every instance or none: a deployment that does not fit fails as before, creating nothing', async () => {
    const { store, published, icms } = await handlersWith([cluster('c1', 2)]);
    await expect(icms.launch('nca-a', { specs: [spec(3)] })).rejects.toMatchObject(
      refused(
        'gpuSpecifications[0]: room for 2 of 3 instances: no eligible cluster for H100/gh100_1.br20_2xlarge (c1: full: 2 of 2 H100 in use)',
      ),
    );
    expect(await store.listInstancesByCluster('c1')).toEqual([]);
    expect(published).toEqual([]);
  });

  it('spreads a launch by free GPUs, and its specs share them', async () => {
    const { store, icms } = await handlersWith([cluster('c1', 8), cluster('c2', 16)]);
    await icms.launch('nca-a', { specs: [spec(1, EIGHT, 'a'), spec(2, EIGHT, 'b')] });
    const on = async (id: string) => (await store.listInstancesByCluster(id)).map((i) => i.gpus);
    // 16 free on c2 takes the first, then 8 and 8 tie and the less loaded c1 takes the next
    expect(await on('c1')).toEqual([{ name: 'H100', count: 8 }]);
    expect(await on('c2')).toEqual([
      { name: 'H100', count: 8 },
      { name: 'H100', count: 8 },
    ]);
    await expect(icms.launch('nca-a', { specs: [spec(1)] })).rejects.toMatchObject(refused('c1: full: 8 of 8'));
  });

  it('frees the GPUs of a terminated instance and of an ended task', async () => {
    const { store, icms, published } = await handlersWith<RunTaskMessage>([cluster('c1', 8)]);
    const { instances } = await icms.launch('nca-a', { specs: [spec(1, EIGHT)] });
    await expect(icms.placeTask('nca-a', task('t1'))).rejects.toMatchObject(refused('c1: full: 8 of 8 H100 in use'));
    await store.recordState(instances.spec[0], 'TERMINATED', null, 1, new Date().toISOString());
    expect(await icms.placeTask('nca-a', task('t1', EIGHT))).toEqual({ clusterId: 'c1' });
    // the run message carries the GPUs its instance type takes there, which the agent's Job requests
    expect(published.at(-1)!.msg).toMatchObject({ taskId: 't1', gpuCount: 8 });
    await expect(icms.placeTask('nca-a', task('t2'))).rejects.toMatchObject(refused('c1: full: 8 of 8 H100 in use'));
    // a repeated placement (its answer was lost) does not count the task against itself
    expect(await icms.placeTask('nca-a', task('t1', EIGHT))).toEqual({ clusterId: 'c1' });
    await store.endTask('t1');
    expect(await icms.placeTask('nca-a', task('t2'))).toEqual({ clusterId: 'c1' });
    expect(published.at(-1)!.msg).toMatchObject({ taskId: 't2', gpuCount: 1 });
  });

  it('does not let two placements at once both take the last GPU', async () => {
    const { icms } = await handlersWith([cluster('c1', 1)]);
    const results = await Promise.allSettled([
      icms.placeTask('nca-a', task('t1')),
      icms.placeTask('nca-a', task('t2')),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});

describe('Cluster.gpus', () => {
  it('shows each GPU kind’s capacity, null when it has none', async () => {
    const { store } = await handlersWith([cluster('c1', 16), cluster('old')]);
    const result = await graphql({
      schema: buildIcmsSchema(store),
      source: '{ clusters { id gpus { name capacity } } }',
      contextValue: { tenant: 'nca-a', loaders: createLoaders(store) },
    });
    expect(result).toEqual({
      data: {
        clusters: [
          { id: 'c1', gpus: [{ name: 'H100', capacity: 16 }] },
          { id: 'old', gpus: [{ name: 'H100', capacity: null }] },
        ],
      },
    });
  });
});

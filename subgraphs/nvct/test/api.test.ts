import { graphql } from 'graphql';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { buildNvctSchema, createMemoryTaskStore, type TaskStore } from '../src/index.js';
import { createLoaders } from '../src/resolvers.js';

const registry = loadRegistry(defaultRegistryPath());
const TASK =
  'id name status workloadType createdAt endedAt message maxRuntimeDuration maxQueuedDuration events { cursor at status message task { id } }';

describe('nvct API', () => {
  let store: TaskStore;
  let now: Date;
  let run: (tenant: string, source: string, variableValues?: Record<string, unknown>) => ReturnType<typeof graphql>;
  beforeEach(async () => {
    store = createMemoryTaskStore();
    now = new Date('2026-01-01T00:00:00.000Z');
    const bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    const schema = buildNvctSchema({ store, bus, clock: () => now }, registry);
    run = (tenant, source, variableValues) =>
      graphql({ schema, source, variableValues, contextValue: { tenant, loaders: createLoaders(store) } });
  });

  const create = (tenant: string, input: Record<string, unknown>) =>
    run(tenant, `mutation ($input: CreateTaskInput!) { createTask(input: $input) { ${TASK} } }`, { input });
  const container = (extra: Record<string, unknown> = {}) => ({
    name: 'fine-tune',
    container: { image: 'nvcr.io/nca-a/train:1' },
    gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
    ...extra,
  });
  const code = (r: Awaited<ReturnType<typeof graphql>>) => r.errors?.[0]?.extensions?.code;

  it('queues a container task with the default durations and its QUEUED event', async () => {
    const r = await create('nca-a', container());
    expect(r.errors).toBeUndefined();
    const t = (r.data as { createTask: Record<string, unknown> }).createTask;
    expect(t).toMatchObject({
      name: 'fine-tune',
      status: 'QUEUED',
      workloadType: 'CONTAINER',
      createdAt: now.toISOString(),
      endedAt: null,
      maxRuntimeDuration: 'P1D',
      maxQueuedDuration: 'P3D',
      events: [{ status: 'QUEUED', at: now.toISOString(), message: null, task: { id: t.id } }],
    });
  });

  it('takes an operator task whose manifests the registry allows, and refuses one it does not', async () => {
    const manifest = {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'warmup' },
      spec: { services: { worker: { replicas: 1 } } },
    };
    const ok = await create('nca-a', {
      ...container(),
      container: null,
      operator: { operatorTypes: ['dynamo'], manifests: [manifest] },
    });
    expect(ok.errors).toBeUndefined();
    expect((ok.data as { createTask: { workloadType: string } }).createTask.workloadType).toBe('OPERATOR');

    const foreign = { ...manifest, apiVersion: 'apps.nvidia.com/v1alpha1', kind: 'NIMCache', spec: { source: {} } };
    const refused = await create('nca-a', {
      ...container(),
      container: null,
      operator: { operatorTypes: ['dynamo'], manifests: [foreign] },
    });
    expect(code(refused)).toBe('INVALID_MANIFEST');
    expect(refused.errors![0].message).toMatch(/belongs to operator type 'nim'/);
    const unknown = await create('nca-a', {
      ...container(),
      container: null,
      operator: { operatorTypes: ['nope'], manifests: [manifest] },
    });
    expect(code(unknown)).toBe('BAD_USER_INPUT');
  });

  it('refuses none or two workloads', async () => {
    const two = await create(
      'nca-a',
      container({ helm: { chart: 'oci://nvcr.io/a/echo-1.0.0.tgz', serviceName: 'echo' } }),
    );
    expect(code(two)).toBe('BAD_USER_INPUT');
    expect(two.errors![0].message).toMatch(/exactly one of container, helm or operator .*got container and helm/);
    expect(code(await create('nca-a', container({ container: null })))).toBe('BAD_USER_INPUT');
  });

  it.each([
    ['maxRuntimeDuration', 'P1M', /years and months have no fixed length/],
    ['maxRuntimeDuration', '1h', /not a duration this API takes/],
    ['maxQueuedDuration', 'PT', /not a duration this API takes/],
    ['maxQueuedDuration', 'P8D', /at most P7D/],
    ['terminationGracePeriodDuration', 'PT0S', /more than zero/],
  ])('refuses %s %s with INVALID_DURATION', async (field, value, message) => {
    const r = await create('nca-a', container({ [field]: value }));
    expect(code(r)).toBe('INVALID_DURATION');
    expect(r.errors![0].message).toMatch(message);
    expect(r.errors![0].extensions.field).toBe(field);
  });

  it('takes durations in days, hours, minutes, seconds and weeks', async () => {
    const r = await create(
      'nca-a',
      container({ maxRuntimeDuration: 'PT1H30M', maxQueuedDuration: 'P1W', terminationGracePeriodDuration: 'PT2.5S' }),
    );
    expect(r.errors).toBeUndefined();
  });

  it("another tenant's task is NOT_FOUND to cancel, null to read and absent from its list", async () => {
    const { id } = ((await create('nca-a', container())).data as { createTask: { id: string } }).createTask;
    const cancel = await run('nca-b', 'mutation ($id: ID!) { cancelTask(id: $id) { id } }', { id });
    expect(code(cancel)).toBe('NOT_FOUND');
    expect((await run('nca-b', 'query ($id: ID!) { task(id: $id) { id } }', { id })).data).toEqual({ task: null });
    const list = await run('nca-b', '{ tasks { edges { node { id } } pageInfo { hasNextPage endCursor } } }');
    expect(list.data).toEqual({ tasks: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } } });
    expect(
      ((await run('nca-a', 'query ($id: ID!) { task(id: $id) { id } }', { id })).data as { task: unknown }).task,
    ).toEqual({ id });
  });

  it("reads many tasks by id in the order asked, another tenant's and unknown ids as null", async () => {
    const idOf = async (tenant: string) =>
      ((await create(tenant, container())).data as { createTask: { id: string } }).createTask.id;
    const [a1, a2, b1] = [await idOf('nca-a'), await idOf('nca-a'), await idOf('nca-b')];
    const q = 'query ($ids: [ID!]!) { tasksByIds(ids: $ids) { id name } }';
    const r = await run('nca-a', q, { ids: [a2, b1, 'no-such-task', a1] });
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      tasksByIds: [{ id: a2, name: 'fine-tune' }, null, null, { id: a1, name: 'fine-tune' }],
    });
    expect((await run('nca-b', q, { ids: [a1, b1] })).data).toEqual({
      tasksByIds: [null, { id: b1, name: 'fine-tune' }],
    });
  });

  it('cancels a queued task once; a second cancel is TASK_ENDED', async () => {
    const { id } = ((await create('nca-a', container())).data as { createTask: { id: string } }).createTask;
    now = new Date('2026-01-01T00:01:00.000Z');
    const r = await run('nca-a', `mutation ($id: ID!) { cancelTask(id: $id) { ${TASK} } }`, { id });
    expect(r.errors).toBeUndefined();
    expect((r.data as { cancelTask: unknown }).cancelTask).toMatchObject({
      status: 'CANCELED',
      endedAt: now.toISOString(),
      message: 'canceled by the owner',
      events: [{ status: 'QUEUED' }, { status: 'CANCELED', at: now.toISOString() }],
    });
    const again = await run('nca-a', 'mutation ($id: ID!) { cancelTask(id: $id) { id } }', { id });
    expect(code(again)).toBe('TASK_ENDED');
  });

  it('pages newest first with a cursor, filtered by status', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      now = new Date(Date.UTC(2026, 0, 1, 0, 0, n));
      ids.push(((await create('nca-a', container())).data as { createTask: { id: string } }).createTask.id);
    }
    await run('nca-a', 'mutation ($id: ID!) { cancelTask(id: $id) { id } }', { id: ids[0] });
    type Page = { tasks: { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } };
    const page = async (args: string) =>
      (await run('nca-a', `{ tasks(${args}) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`))
        .data as Page;
    const p1 = await page('first: 2');
    expect(p1.tasks.edges.map((e) => e.node.id)).toEqual([ids[4], ids[3]]);
    expect(p1.tasks.pageInfo.hasNextPage).toBe(true);
    const p2 = await page(`first: 3, after: "${p1.tasks.pageInfo.endCursor}"`);
    expect(p2.tasks.edges.map((e) => e.node.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(p2.tasks.pageInfo.hasNextPage).toBe(false);
    expect((await page('status: CANCELED')).tasks.edges.map((e) => e.node.id)).toEqual([ids[0]]);
    expect(code(await run('nca-a', '{ tasks(after: "garbage") { pageInfo { hasNextPage } } }'))).toBe('CURSOR_INVALID');
    expect(code(await run('nca-a', '{ tasks(first: 0) { pageInfo { hasNextPage } } }'))).toBe('BAD_USER_INPUT');
  });
});

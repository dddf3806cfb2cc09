import type { SimulatedCluster } from '@nvcf/agent';
import type { System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import { fast, operatorCluster, type MakeSystem } from './system.js';

interface Reply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

interface TaskView {
  status: string;
  message: string | null;
  endedAt: string | null;
  events: { status: string; message: string | null }[];
}

/** Tasks through the gateway: the nvct subgraph is composed, routed, tenant-scoped, and its tasks run on the clusters. */
export function tasksSuite(name: string, make: MakeSystem) {
  describe(`${name}: tasks (nvct)`, () => {
    let system: System;
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => system?.dispose());

    const gql = async <T>(token: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as Reply<T>;
    };
    const createTask = (token: string, input: Record<string, unknown>) =>
      gql<{ createTask: { id: string; status: string } }>(
        token,
        'mutation ($input: CreateTaskInput!) { createTask(input: $input) { id status } }',
        { input },
      );
    const input = {
      name: 'eval',
      container: { image: 'nvcr.io/nca-a/eval:1', args: ['--steps', '10'] },
      gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
      maxRuntimeDuration: 'PT1H',
    };
    const simulate = (nvcfSimulate: Record<string, unknown>) => ({ ...input, configuration: { nvcfSimulate } });
    const created = async (token: string, i: Record<string, unknown>) => {
      const r = await createTask(token, i);
      expect(r.errors).toBeUndefined();
      return r.data!.createTask.id;
    };
    const task = async (id: string, token = 'dev-token-a') =>
      (
        await gql<{ task: TaskView | null }>(
          token,
          'query ($id: ID!) { task(id: $id) { status message endedAt events { status message } } }',
          { id },
        )
      ).data!.task;
    /** polls the task until it is in `status` (a deadline, never a sleep) */
    const reaches = (id: string, status: string, timeoutMs = 10_000) =>
      waitUntil<TaskView | null>(
        async () => {
          const t = await task(id);
          return t?.status === status ? t : null;
        },
        { timeoutMs, what: `task ${id} ${status}` },
      );
    /** the task's workload on the simulated cluster it was sent to */
    const onCluster = (id: string) =>
      [...system.drivers.values()].map((d) => (d as SimulatedCluster).task?.(id)).find(Boolean) ?? null;

    it("queues a task, reads and lists it for its tenant only; another tenant's id is NOT_FOUND", async () => {
      const created = await createTask('dev-token-a', simulate({ runMs: 60_000 }));
      expect(created.errors).toBeUndefined();
      const { id, status } = created.data!.createTask;
      expect(status).toBe('QUEUED');

      const read = await gql<{ task: { name: string; events: { status: string }[] } | null }>(
        'dev-token-a',
        'query ($id: ID!) { task(id: $id) { name events { status } } }',
        { id },
      );
      expect(read.data!.task).toMatchObject({ name: 'eval', events: expect.arrayContaining([{ status: 'QUEUED' }]) });
      const listed = await gql<{ tasks: { edges: { node: { id: string } }[] } }>(
        'dev-token-a',
        '{ tasks(first: 100) { edges { node { id } } } }',
      );
      expect(listed.data!.tasks.edges.map((e) => e.node.id)).toContain(id);

      expect((await gql('dev-token-b', 'query ($id: ID!) { task(id: $id) { id } }', { id })).data).toEqual({
        task: null,
      });
      const cancel = await gql('dev-token-b', 'mutation ($id: ID!) { cancelTask(id: $id) { id } }', { id });
      expect(cancel.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const theirs = await gql<{ tasks: { edges: { node: { id: string } }[] } }>(
        'dev-token-b',
        '{ tasks(first: 100) { edges { node { id } } } }',
      );
      expect(theirs.data!.tasks.edges.map((e) => e.node.id)).not.toContain(id);

      const canceled = await gql<{ cancelTask: { status: string } }>(
        'dev-token-a',
        'mutation ($id: ID!) { cancelTask(id: $id) { status } }',
        { id },
      );
      expect(canceled.data!.cancelTask.status).toBe('CANCELED');
    });

    it('runs a container task on a cluster to COMPLETED, through every state', async () => {
      const id = await created('dev-token-a', simulate({ runMs: 100 }));
      const done = await reaches(id, 'COMPLETED');
      expect(done.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
      expect(done.endedAt).not.toBeNull();
      expect(onCluster(id)).toBe('succeeded');
    });

    it('runs an operator task to COMPLETED on a cluster whose attributes carry its operator', async () => {
      const manifest = {
        apiVersion: 'nvidia.com/v1alpha1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'warmup' },
        spec: { services: { worker: { replicas: 1 } } },
      };
      const id = await created('dev-token-a', {
        ...simulate({ runMs: 50 }),
        container: null,
        operator: { operatorTypes: ['dynamo'], manifests: [manifest] },
      });
      await reaches(id, 'COMPLETED');
      expect((system.drivers.get(operatorCluster(system)) as SimulatedCluster).task(id)).toBe('succeeded');
    });

    it('ends a failing task ERRORED with its exit message', async () => {
      const id = await created('dev-token-a', simulate({ runMs: 50, exitCode: 3, message: 'loss diverged' }));
      const failed = await reaches(id, 'ERRORED');
      expect(failed.message).toBe('loss diverged');
      expect(failed.events.at(-1)).toEqual({ status: 'ERRORED', message: 'loss diverged' });
      expect(onCluster(id)).toBe('failed');
    });

    it('cancels a running task and its agent stops the workload', async () => {
      const id = await created('dev-token-a', simulate({ runMs: 60_000 }));
      await reaches(id, 'RUNNING');
      const canceled = await gql<{ cancelTask: { status: string } }>(
        'dev-token-a',
        'mutation ($id: ID!) { cancelTask(id: $id) { status } }',
        { id },
      );
      expect(canceled.data!.cancelTask.status).toBe('CANCELED');
      await waitUntil(() => onCluster(id) === 'stopped', { what: `task ${id} stopped on its cluster` });
      expect((await task(id))!.status).toBe('CANCELED');
    });

    it('ends a task past maxRuntimeDuration EXCEEDED_MAX_RUNTIME and stops it on its cluster', async () => {
      const id = await created('dev-token-a', { ...simulate({ runMs: 60_000 }), maxRuntimeDuration: 'PT0.5S' });
      const ended = await reaches(id, 'EXCEEDED_MAX_RUNTIME');
      expect(ended.message).toMatch(/maxRuntimeDuration PT0.5S/);
      await waitUntil(() => onCluster(id) === 'stopped', { what: `task ${id} stopped on its cluster` });
    });

    it('keeps a task no cluster can take QUEUED, never launched, until maxQueuedDuration', async () => {
      const id = await created('dev-token-a', {
        ...input,
        gpuSpecification: { gpu: 'NO_SUCH_GPU', instanceType: 'none' },
        maxQueuedDuration: 'PT0.5S',
      });
      const ended = await reaches(id, 'EXCEEDED_MAX_QUEUED_DURATION');
      expect(ended.events.map((e) => e.status)).toEqual(['QUEUED', 'EXCEEDED_MAX_QUEUED_DURATION']);
      expect(onCluster(id)).toBeNull();
    });

    it("runs each tenant's tasks for that tenant only", async () => {
      const a = await created('dev-token-a', simulate({ runMs: 50 }));
      const b = await created('dev-token-b', simulate({ runMs: 50, exitCode: 1, message: 'b failed' }));
      expect((await reaches(a, 'COMPLETED')).message).toBeNull();
      await waitUntil(async () => (await task(b, 'dev-token-b'))?.status === 'ERRORED', { what: `task ${b} ERRORED` });
      expect(await task(b, 'dev-token-a')).toBeNull();
      expect(await task(a, 'dev-token-b')).toBeNull();
    });

    it('refuses an invalid duration and a task without a workload, with their codes', async () => {
      const bad = await createTask('dev-token-a', { ...input, maxQueuedDuration: 'P1Y' });
      expect(bad.errors?.[0]?.extensions?.code).toBe('INVALID_DURATION');
      expect(bad.errors?.[0]?.message).toMatch(/maxQueuedDuration 'P1Y'/);
      const none = await createTask('dev-token-a', { ...input, container: null });
      expect(none.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('the gateway refuses a task name past its input limit before any subgraph sees it', async () => {
      const long = await createTask('dev-token-a', { ...input, name: 'x'.repeat(129) });
      expect(long.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });
  });
}

import type { System } from '@nvcf/local';
import { fast, type MakeSystem } from './system.js';

interface Reply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Tasks through the gateway: the nvct subgraph is composed, routed, and tenant-scoped. */
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

    it("queues a task, reads and lists it for its tenant only; another tenant's id is NOT_FOUND", async () => {
      const created = await createTask('dev-token-a', input);
      expect(created.errors).toBeUndefined();
      const { id, status } = created.data!.createTask;
      expect(status).toBe('QUEUED');

      const read = await gql<{ task: { name: string; events: { status: string }[] } | null }>(
        'dev-token-a',
        'query ($id: ID!) { task(id: $id) { name events { status } } }',
        { id },
      );
      expect(read.data!.task).toEqual({ name: 'eval', events: [{ status: 'QUEUED' }] });
      const listed = await gql<{ tasks: { edges: { node: { id: string } }[] } }>(
        'dev-token-a',
        '{ tasks(status: QUEUED, first: 100) { edges { node { id } } } }',
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

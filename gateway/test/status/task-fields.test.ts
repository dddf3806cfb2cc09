import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execute, Kind, parse, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams, subjects, type TaskStatusEvent } from '@nvcf/contracts';
import { StatusService } from '../../src/status/service.js';
import { statusOperation } from '../../src/status/operation.js';
import { publicSchema } from '../../src/status/execute.js';
import { serveSse } from '../../src/status/sse.js';
import { ENTITY_RETRY, type Execute } from '../../src/status/entities.js';

interface Task {
  id: string;
  ncaId: string;
  name: string;
  createdAt: string;
}

/**
 * nvct as the gateway reaches it: the gateway's query executed on the public schema, `tasksByIds`
 * and `task` scoped to the tenant the request carries, every request counted.
 */
function fakeNvct(tasks: Task[]) {
  const requests: { tenant: string; ids: string[] }[] = [];
  let down = false;
  const own = (tenant: string, id: string) => tasks.find((t) => t.id === id && t.ncaId === tenant) ?? null;
  const run: Execute = async (tenant, query, variables) => {
    requests.push({ tenant, ids: (variables.__ids as string[] | undefined) ?? [String(variables.__id)] });
    if (down) return { errors: [{ message: 'the task store is unavailable', extensions: { code: 'UNAVAILABLE' } }] };
    const rootValue = {
      tasksByIds: ({ ids }: { ids: string[] }) => ids.map((id) => own(tenant, id)),
      task: ({ id }: { id: string }) => own(tenant, id),
    };
    const r = await execute({
      schema: publicSchema(),
      document: parse(query),
      rootValue,
      variableValues: variables,
    });
    if (r.errors) throw new Error(`nvct refused the gateway's query: ${r.errors.map((e) => e.message).join('; ')}`);
    return r as Awaited<ReturnType<Execute>>;
  };
  return { run, requests, goDown: () => (down = true) };
}

async function start(execute: Execute) {
  const bus = createMemoryBus();
  await bus.ensureStreams(allStreams);
  const status = new StatusService({ bus, cursorSecret: 'task-fields-test-secret-0123456789abcdef', execute });
  await status.start();
  const seqs = new Map<string, number>();
  const disposals: (() => Promise<void>)[] = [];
  const open = async (tenant: string, query: string, variables: Record<string, unknown>) => {
    const document = parse(query);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    const op = statusOperation({ document, operation, fragments: new Map() })!;
    const run = await status.run(op, variables, tenant, null, query);
    if (!('events' in run)) throw new Error(`not opened: ${JSON.stringify(run)}`);
    return run;
  };
  return {
    status,
    /** one transition of each task, all published in one turn: what one read of the stream hands over */
    publish: (tenant: string, taskIds: string[], status_: TaskStatusEvent['status'] = 'RUNNING') =>
      Promise.all(
        taskIds.map((taskId) => {
          const seq = (seqs.get(taskId) ?? 0) + 1;
          seqs.set(taskId, seq);
          const e: TaskStatusEvent = {
            type: 'task-status',
            ncaId: tenant,
            taskId,
            seq,
            status: status_,
            previousStatus: null,
            at: new Date().toISOString(),
            message: null,
          };
          return bus.publish(subjects.taskStatus(tenant, taskId), e);
        }),
      ),
    /** a subscription in push mode (the WebSocket path), its results as they arrive */
    async subscribe(tenant: string, query: string, variables: Record<string, unknown> = {}) {
      const run = await open(tenant, query, variables);
      const results: ExecutionResult[] = [];
      let ended: Error | undefined;
      run.push({ push: (r) => results.push(r) > 0, end: (err) => (ended = err) });
      return { results, ended: () => ended, close: () => run.events.return!() };
    },
    /** a subscription pulled over SSE (graphql-sse's distinct connections), its results as they arrive */
    async subscribeSse(tenant: string, query: string, variables: Record<string, unknown> = {}) {
      const run = await open(tenant, query, variables);
      const server = createServer((_req, res) => void serveSse(res, run));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const stop = new AbortController();
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: stop.signal });
      const results: ExecutionResult[] = [];
      const read = (async () => {
        let text = '';
        const decoder = new TextDecoder();
        const reader = res.body!.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          text += decoder.decode(chunk.value, { stream: true });
          for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
            const message = text.slice(0, end).split('\n');
            text = text.slice(end + 2);
            const data = message.find((l) => l.startsWith('data: '));
            if (message.includes('event: next') && data) results.push(JSON.parse(data.slice(6)) as ExecutionResult);
          }
        }
      })().catch(() => {});
      disposals.push(async () => {
        stop.abort();
        await read;
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      });
      return { results };
    },
    async [Symbol.asyncDispose]() {
      for (const d of disposals.splice(0)) await d();
      await status.stop();
    },
  };
}

const until = async (cond: () => boolean, what: string) => {
  for (const deadline = Date.now() + 10_000; !cond();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

const task = (ncaId: string, i: number): Task => ({
  id: `${ncaId}-task-${i}`,
  ncaId,
  name: `train ${ncaId} ${i}`,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const names = (results: ExecutionResult[]) =>
  results.map((r) => (r.data as { taskStatusChanged: { task: { name: string } | null } }).taskStatusChanged.task?.name);

describe('Task fields of taskStatusChanged from nvct', () => {
  const N = 4;
  const M = 6;

  it('N subscribers of each of M tasks whose transitions arrive together cost nvct one request', async () => {
    const tasks = Array.from({ length: M }, (_, i) => task('nca-a', i));
    const nvct = fakeNvct(tasks);
    await using gw = await start(nvct.run);
    const subs: { task: Task; sub: Awaited<ReturnType<typeof gw.subscribe>> }[] = [];
    for (const t of tasks)
      for (let i = 0; i < N; i++)
        // different operations (no shared result), one Task selection: the fetch is still shared
        subs.push({
          task: t,
          sub: await gw.subscribe(
            'nca-a',
            `subscription S${i}($id: ID) { taskStatusChanged(taskId: $id) { status task { id name createdAt } } }`,
            { id: t.id },
          ),
        });
    await gw.publish(
      'nca-a',
      tasks.map((t) => t.id),
    );
    await until(() => subs.every((s) => s.sub.results.length === 1), 'every subscriber to get its event');
    for (const { task: t, sub } of subs) expect(names(sub.results)).toEqual([t.name]);
    expect(nvct.requests).toHaveLength(1);
    expect(nvct.requests[0].ids.sort()).toEqual(tasks.map((t) => t.id).sort());
  });

  it.each(['subscribe', 'subscribeSse'] as const)(
    'a snapshot over many tasks, and a burst of transitions, cost one request each, not one per task (%s)',
    async (transport) => {
      const tasks = Array.from({ length: 3 * M }, (_, i) => task('nca-a', i));
      const nvct = fakeNvct(tasks);
      await using gw = await start(nvct.run);
      await gw.publish(
        'nca-a',
        tasks.map((t) => t.id),
        'QUEUED',
      );
      const q = 'subscription ($s: Boolean) { taskStatusChanged(snapshot: $s) { status task { id name } } }';
      const sub = await gw[transport]('nca-a', q, { s: true });
      await until(() => sub.results.length === tasks.length, 'the snapshot');
      expect(names(sub.results)).toEqual(tasks.map((t) => t.name));
      expect(nvct.requests).toHaveLength(1);
      await gw.publish(
        'nca-a',
        tasks.map((t) => t.id),
      );
      await until(() => sub.results.length === 2 * tasks.length, 'the burst');
      expect(names(sub.results.slice(tasks.length))).toEqual(tasks.map((t) => t.name));
      expect(nvct.requests).toHaveLength(2);
    },
  );

  it("never shares a fetch between tenants over SSE, nor answers one tenant's task to another", async () => {
    const a = [task('nca-a', 1), task('nca-a', 2)];
    const b = [task('nca-b', 1), task('nca-b', 2)];
    const nvct = fakeNvct([...a, ...b]);
    await using gw = await start(nvct.run);
    const q = 'subscription { taskStatusChanged { status task { id name } } }';
    const subA = await gw.subscribeSse('nca-a', q);
    const subB = await gw.subscribeSse('nca-b', q);
    await Promise.all([
      gw.publish(
        'nca-a',
        a.map((t) => t.id),
      ),
      gw.publish(
        'nca-b',
        b.map((t) => t.id),
      ),
    ]);
    await until(() => subA.results.length === 2 && subB.results.length === 2, 'both tenants to get their events');
    expect(names(subA.results)).toEqual(a.map((t) => t.name));
    expect(names(subB.results)).toEqual(b.map((t) => t.name));
    expect(nvct.requests.every((r) => r.ids.every((id) => id.startsWith(`${r.tenant}-`)))).toBe(true);
  });

  it("never shares a fetch between tenants, nor answers one tenant's task to another", async () => {
    const a = task('nca-a', 1);
    const b = task('nca-b', 1);
    const nvct = fakeNvct([a, b]);
    await using gw = await start(nvct.run);
    const q = 'subscription { taskStatusChanged { status task { id name } } }';
    const subA = await gw.subscribe('nca-a', q);
    const subB = await gw.subscribe('nca-b', q);
    await Promise.all([gw.publish('nca-a', [a.id]), gw.publish('nca-b', [b.id])]);
    await until(() => subA.results.length === 1 && subB.results.length === 1, 'both tenants to get their event');
    expect(names(subA.results)).toEqual([a.name]);
    expect(names(subB.results)).toEqual([b.name]);
    // same selection, same tick: still one request per tenant, each with its own ids only
    expect([...nvct.requests].sort((x, y) => x.tenant.localeCompare(y.tenant))).toEqual([
      { tenant: 'nca-a', ids: [a.id] },
      { tenant: 'nca-b', ids: [b.id] },
    ]);
  });

  it("a tenant asking for another tenant's task id in the same tick gets null, never the other's row", async () => {
    const saved = ENTITY_RETRY.missingForMs;
    ENTITY_RETRY.missingForMs = 100;
    try {
      const a = task('nca-a', 1);
      const nvct = fakeNvct([a]);
      const { status } = await start(nvct.run);
      try {
        const document = parse('subscription { taskStatusChanged { task { id name } } }');
        const op = statusOperation({
          document,
          operation: document.definitions[0] as OperationDefinitionNode,
          fragments: new Map(),
        })!;
        const qa = status.entities.prepare('nca-a', op, {});
        const qb = status.entities.prepare('nca-b', op, {});
        const [rowA, rowB] = await Promise.all([status.entities.load(qa, a.id), status.entities.load(qb, a.id)]);
        expect(rowA).toMatchObject({ name: a.name });
        expect(rowB).toBeNull();
        expect(nvct.requests.every((r) => r.tenant === 'nca-a' || r.tenant === 'nca-b')).toBe(true);
        expect(nvct.requests.filter((r) => r.tenant === 'nca-a')).toHaveLength(1);
      } finally {
        await status.stop();
      }
    } finally {
      ENTITY_RETRY.missingForMs = saved;
    }
  });

  it('with nvct unavailable the event fails with UNAVAILABLE and how to resume, as for instance fields', async () => {
    const saved = ENTITY_RETRY.forMs;
    ENTITY_RETRY.forMs = 300;
    try {
      const tasks = [task('nca-a', 1), task('nca-a', 2)];
      const nvct = fakeNvct(tasks);
      nvct.goDown();
      await using gw = await start(nvct.run);
      const sub = await gw.subscribe('nca-a', 'subscription { taskStatusChanged { cursor status task { name } } }');
      await gw.publish(
        'nca-a',
        tasks.map((t) => t.id),
      );
      await until(() => sub.results.length === 2, 'both events');
      for (const r of sub.results) {
        expect(r.data).toBeNull();
        expect(r.errors?.[0]).toMatchObject({
          extensions: { code: 'UNAVAILABLE' },
          message: expect.stringContaining('subscribe again with after = the last cursor you received'),
        });
      }
    } finally {
      ENTITY_RETRY.forMs = saved;
    }
  });
});

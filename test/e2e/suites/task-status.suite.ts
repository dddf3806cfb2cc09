import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { System } from '@nvcf/local';
import {
  createClient,
  CreateTaskDocument,
  TaskStatusChangedDocument,
  type TaskStatusChangedSubscription,
  type TaskStatusChangedSubscriptionVariables,
  type TaskWatchItem,
} from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import { httpClient, ok, sseSubscribe, wsSubscribe, watchSubscriptions, type Collected } from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

type Sub = Collected<TaskStatusChangedSubscription>;
const ofTask = (s: Sub, id: string) => s.events.map((e) => e.taskStatusChanged).filter((e) => e.task.id === id);
const statuses = (s: Sub, id: string) => ofTask(s, id).map((e) => e.status);
const LIFE = ['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED'];

/** A selection with Task fields the event does not carry: nvct answers them, through the supergraph. */
const WithName = parse(`
  subscription ($taskId: ID, $snapshot: Boolean) {
    taskStatusChanged(taskId: $taskId, snapshot: $snapshot) { cursor status task { id name status endedAt } }
  }
`) as TypedDocumentNode<
  {
    taskStatusChanged: {
      cursor: string;
      status: string;
      task: { id: string; name: string; status: string; endedAt: string | null };
    };
  },
  { taskId?: string; snapshot?: boolean }
>;

/**
 * taskStatusChanged through the gateway: every transition of a task pushed once, in order, over
 * both transports; resumed from a cursor, with a snapshot, and never across tenants.
 */
export function taskStatusSuite(name: string, make: MakeSystem) {
  describe(`${name}: taskStatusChanged`, () => {
    let system: System;
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => system?.dispose());

    const input = (runMs: number, taskName = 'eval') => ({
      name: taskName,
      container: { image: 'nvcr.io/nca-a/eval:1' },
      gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
      configuration: { nvcfSimulate: { runMs } },
    });
    const create = async (token: string, runMs: number, taskName?: string) =>
      ok(await httpClient(system.url, token)(CreateTaskDocument, { input: input(runMs, taskName) })).createTask.id;
    const subscribed = (tenant: string) => watchSubscriptions(system.gateway.metricsUrl, tenant, 'nvcf_task_status');
    const ws = (token: string, variables: TaskStatusChangedSubscriptionVariables) =>
      wsSubscribe(system.gateway.wsUrl, token, TaskStatusChangedDocument, variables);

    let done: { id: string; cursors: string[] } | undefined;
    /** a task run to COMPLETED while a tenant-wide subscription watched it, and that subscription's cursors */
    const completed = async () => {
      if (done) return done;
      const opened = await subscribed('nca-a');
      await using all = ws('dev-token-a', {});
      await opened.opened();
      const id = await create('dev-token-a', 100, 'watched');
      await all.until(() => statuses(all, id).includes('COMPLETED'), `task ${id} COMPLETED`);
      return (done = { id, cursors: ofTask(all, id).map((e) => e.cursor) });
    };

    it('pushes every transition of a task once, in order, to a subscription of the whole tenant', async () => {
      const opened = await subscribed('nca-a');
      await using all = ws('dev-token-a', {});
      await opened.opened();
      const id = await create('dev-token-a', 100);
      await all.until(() => statuses(all, id).includes('COMPLETED'), `task ${id} COMPLETED`);
      expect(statuses(all, id)).toEqual(LIFE);
      for (const e of ofTask(all, id)) expect(e.task.status).toBe(e.status);
      expect(new Set(ofTask(all, id).map((e) => e.cursor)).size).toBe(4);
    });

    it('resumes after a cursor with exactly the transitions after it, over WebSocket and SSE', async () => {
      const { id, cursors } = await completed();
      await using resumed = ws('dev-token-a', { taskId: id, after: cursors[0] });
      await resumed.until((e) => e.length === 3, 'the transitions after QUEUED');
      expect(statuses(resumed, id)).toEqual(LIFE.slice(1));
      expect(ofTask(resumed, id).map((e) => e.cursor)).toEqual(cursors.slice(1));

      await using sse = sseSubscribe(system.url, 'dev-token-a', TaskStatusChangedDocument, {
        taskId: id,
        after: cursors[1],
      });
      await sse.until((e) => e.length === 2, 'the transitions after LAUNCHED over SSE');
      expect(statuses(sse, id)).toEqual(['RUNNING', 'COMPLETED']);
      expect(sse.errors).toEqual([]);
    });

    it('a snapshot gives the current status of the task, with the Task fields nvct holds', async () => {
      const { id } = await completed();
      await using snap = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', WithName, { taskId: id, snapshot: true });
      const [only] = await snap.until((e) => e.length === 1, 'the snapshot');
      expect(only.taskStatusChanged).toMatchObject({
        status: 'COMPLETED',
        task: { id, name: 'watched', status: 'COMPLETED', endedAt: expect.any(String) },
      });
      await using snapSse = sseSubscribe(system.url, 'dev-token-a', TaskStatusChangedDocument, {
        taskId: id,
        snapshot: true,
      });
      await snapSse.until((e) => e.length === 1, 'the snapshot over SSE');
      expect(statuses(snapSse, id)).toEqual(['COMPLETED']);
    });

    it("never shows a tenant another tenant's task: not by its id, not by its cursor, not tenant-wide", async () => {
      const { id, cursors } = await completed();
      const openedA = await subscribed('nca-a');
      const openedB = await subscribed('nca-b');
      await using control = ws('dev-token-a', {});
      await using byId = ws('dev-token-b', { taskId: id, snapshot: true });
      await using wide = ws('dev-token-b', { snapshot: true });
      await openedA.opened();
      await openedB.opened(2);
      const theirs = await create('dev-token-b', 50);
      const mine = await create('dev-token-a', 50);
      // the positive controls: each tenant sees its own task end (A's through the same shared read B's feeds are offered from)
      await wide.until(() => statuses(wide, theirs).includes('COMPLETED'), `B's task ${theirs} COMPLETED`);
      await control.until(() => statuses(control, mine).includes('COMPLETED'), `A's task ${mine} COMPLETED`);
      expect(byId.events).toEqual([]);
      expect(wide.events.map((e) => e.taskStatusChanged.task.id).filter((t) => t === id || t === mine)).toEqual([]);

      await using forged = ws('dev-token-b', { taskId: id, after: cursors[0] });
      await waitUntil(() => forged.errors.length > 0, { what: "the refusal of A's cursor" });
      expect(JSON.stringify(forged.errors)).toContain('CURSOR_INVALID');
      expect(forged.events).toEqual([]);
    });

    it('client.watchTasks follows a task to its end', async () => {
      const client = createClient({ url: system.url, token: 'dev-token-a' });
      const id = await create('dev-token-a', 100);
      const seen: string[] = [];
      const stop = new AbortController();
      const items: AsyncGenerator<TaskWatchItem> = client.watchTasks(
        { taskId: id },
        { snapshot: true, signal: stop.signal },
      );
      for await (const item of items) {
        if (item.type !== 'event') continue;
        seen.push(item.event.status);
        if (item.event.status === 'COMPLETED') break;
      }
      // subscribed after the create: the snapshot is where it was then, the rest follow once each, in order
      expect(LIFE.slice(LIFE.indexOf(seen[0]))).toEqual(seen);
    });
  });
}

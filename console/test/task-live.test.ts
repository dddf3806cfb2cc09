import { NvcfError, type NvcfClient, type TaskStatus } from '@nvcf/client';
import { followTask, type TaskDetail, type TaskUpdate } from '../web/console/task-live.js';

const task = (status: TaskStatus): TaskDetail => ({
  id: 't1',
  name: 'eval',
  status,
  workloadType: 'CONTAINER',
  gpu: 'L40S',
  instanceType: 'gl40s_1.br25_2xlarge',
  createdAt: '2026-12-02T15:00:00.000Z',
  endedAt: null,
  message: null,
  maxRuntimeDuration: 'P1D',
  maxQueuedDuration: 'P3D',
  terminationGracePeriodDuration: 'PT30S',
  events: [],
});

/** A client whose reads of the task answer, in turn, each of `answers` (a function may throw or wait). */
function fakeClient(answers: (() => Promise<TaskDetail | null>)[]) {
  let reads = 0;
  const client = {
    query: () => {
      const answer = answers[reads++];
      if (!answer) throw new Error(`read ${reads} was not expected`);
      return answer().then((t) => ({ task: t }));
    },
  } as unknown as NvcfClient;
  return { client, reads: () => reads };
}

const now = (t: TaskDetail | null) => () => Promise.resolve(t);

async function collect(updates: AsyncGenerator<TaskUpdate>): Promise<TaskUpdate[]> {
  const out: TaskUpdate[] = [];
  for await (const u of updates) out.push(u);
  return out;
}

const statuses = (us: TaskUpdate[]) => us.map((u) => (u.type === 'task' ? (u.task?.status ?? null) : u.type));

describe('followTask: the task view reads a task until it ends', () => {
  it('reads again while the task has not ended, and not after it has', async () => {
    const fake = fakeClient([now(task('QUEUED')), now(task('RUNNING')), now(task('COMPLETED'))]);
    const got = await collect(followTask(fake.client, 't1', { signal: new AbortController().signal, intervalMs: 1 }));
    expect(statuses(got)).toEqual(['QUEUED', 'RUNNING', 'COMPLETED']);
    expect(fake.reads()).toBe(3);
  });

  it('reports a failed read and tries the next one', async () => {
    const fake = fakeClient([() => Promise.reject(new NvcfError('UNAVAILABLE', 'down')), now(task('CANCELED'))]);
    const got = await collect(followTask(fake.client, 't1', { signal: new AbortController().signal, intervalMs: 1 }));
    expect(statuses(got)).toEqual(['error', 'CANCELED']);
    expect((got[0] as { error: NvcfError }).error.code).toBe('UNAVAILABLE');
  });

  it('stops at a task it cannot see (null: gone, or another tenant’s)', async () => {
    const fake = fakeClient([now(null)]);
    const got = await collect(followTask(fake.client, 't1', { signal: new AbortController().signal, intervalMs: 1 }));
    expect(statuses(got)).toEqual([null]);
    expect(fake.reads()).toBe(1);
  });

  it('stops at once when the view closes during the pause, reading nothing more', async () => {
    const fake = fakeClient([now(task('RUNNING'))]);
    const stop = new AbortController();
    // an hour between reads: only the abort can end this pause within the test's timeout
    const updates = followTask(fake.client, 't1', { signal: stop.signal, intervalMs: 3_600_000 });
    expect(statuses([(await updates.next()).value as TaskUpdate])).toEqual(['RUNNING']);
    const next = updates.next(); // the generator goes on into its pause
    await new Promise((r) => setImmediate(r));
    stop.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(fake.reads()).toBe(1);
  });

  it('drops an answer that arrives after the view closed', async () => {
    const stop = new AbortController();
    let answer!: (t: TaskDetail) => void;
    const fake = fakeClient([() => new Promise<TaskDetail>((resolve) => (answer = resolve))]);
    const got = collect(followTask(fake.client, 't1', { signal: stop.signal, intervalMs: 1 }));
    await new Promise((r) => setImmediate(r));
    stop.abort();
    answer(task('RUNNING'));
    expect(await got).toEqual([]);
  });
});

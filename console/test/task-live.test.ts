import { NvcfError, type NvcfClient, type TaskEvent, type TaskStatus, type TaskWatchItem } from '@nvcf/client';
import { applyTaskEvent, followTask, mergeTask, type TaskDetail, type TaskUpdate } from '../web/console/task-live.js';

const at = (n: number) => `2026-12-02T15:00:0${n}.000Z`;
const ORDER: TaskStatus[] = ['QUEUED', 'LAUNCHED', 'RUNNING'];

/** A task as a read answers it: `statuses` are its transitions so far, oldest first. */
const task = (...statuses: TaskStatus[]): TaskDetail => {
  const last = statuses[statuses.length - 1];
  const ended = !ORDER.includes(last);
  return {
    id: 't1',
    name: 'eval',
    status: last,
    workloadType: 'CONTAINER',
    gpu: 'L40S',
    instanceType: 'gl40s_1.br25_2xlarge',
    createdAt: at(0),
    endedAt: ended ? at(statuses.length - 1) : null,
    message: ended && last !== 'COMPLETED' ? `ended ${last}` : null,
    maxRuntimeDuration: 'P1D',
    maxQueuedDuration: 'P3D',
    terminationGracePeriodDuration: 'PT30S',
    events: statuses.map((s, i) => ({
      cursor: `h${i}`,
      at: at(i),
      status: s,
      message: ended && i === statuses.length - 1 && s !== 'COMPLETED' ? `ended ${s}` : null,
    })),
  };
};

/** A transition as the subscription pushes it: a stream cursor, not the history's. */
const pushed = (status: TaskStatus, n: number, message: string | null = null): TaskWatchItem => ({
  type: 'event',
  event: { cursor: `s${n}`, at: at(n), status, message, task: { id: 't1', status }, lag: null },
});
const connected: TaskWatchItem = { type: 'connected', after: null, attempt: 0 };

/**
 * A client whose reads answer, in turn, each of `reads` (a function may throw), and whose
 * subscription yields `stream` and then, unless `stream` ends with 'hang', completes.
 */
function fakeClient(reads: (() => Promise<TaskDetail | null>)[], stream: (TaskWatchItem | 'hang')[] = []) {
  let readCount = 0;
  const watches: unknown[][] = [];
  const client = {
    query: () => {
      const answer = reads[readCount++];
      if (!answer) throw new Error(`read ${readCount} was not expected`);
      return answer().then((t) => ({ task: t }));
    },
    watchTasks: async function* (filter: unknown, opts: { signal: AbortSignal }) {
      watches.push([filter, { ...opts, signal: undefined }]);
      for (const item of stream) {
        if (item === 'hang') {
          await new Promise((r) => opts.signal.addEventListener('abort', r, { once: true }));
          return;
        }
        yield item;
      }
    },
  } as unknown as NvcfClient;
  return { client, reads: () => readCount, watches };
}

const now = (t: TaskDetail | null) => () => Promise.resolve(t);

async function collect(updates: AsyncGenerator<TaskUpdate>): Promise<TaskUpdate[]> {
  const out: TaskUpdate[] = [];
  for await (const u of updates) out.push(u);
  return out;
}

/** Each update in short: a task's transitions so far, a connection item's type, or `error`. */
const brief = (us: TaskUpdate[]) =>
  us.map((u) =>
    u.type === 'task'
      ? (u.task?.events.map((e) => e.status).join('>') ?? null)
      : u.type === 'error'
        ? 'error'
        : u.item.type,
  );

const follow = (client: NvcfClient, signal = new AbortController().signal) =>
  followTask(client, 't1', { signal, retryMs: 1 });

describe('followTask: the task view reads a task once, then follows its subscription', () => {
  it('shows each pushed transition as it arrives and stops at the end, reading the task only once', async () => {
    const fake = fakeClient(
      [now(task('QUEUED'))],
      [connected, pushed('QUEUED', 0), pushed('LAUNCHED', 1), pushed('RUNNING', 2), pushed('COMPLETED', 3), 'hang'],
    );
    const got = await collect(follow(fake.client));
    expect(brief(got)).toEqual([
      'QUEUED',
      'connected',
      'QUEUED>LAUNCHED',
      'QUEUED>LAUNCHED>RUNNING',
      'QUEUED>LAUNCHED>RUNNING>COMPLETED',
    ]);
    expect(fake.reads()).toBe(1);
    // the snapshot says where the task is when the subscription opens
    expect(fake.watches).toEqual([[{ taskId: 't1' }, expect.objectContaining({ snapshot: true })]]);
    const end = (got.at(-1) as { task: TaskDetail }).task;
    expect(end).toMatchObject({ status: 'COMPLETED', endedAt: at(3), message: null });
  });

  it('reads once more when the snapshot is a transition the read did not have: the gap between them', async () => {
    const fake = fakeClient(
      [now(task('QUEUED')), now(task('QUEUED', 'LAUNCHED', 'RUNNING'))],
      [connected, pushed('RUNNING', 2), pushed('ERRORED', 3, 'loss diverged')],
    );
    const got = await collect(follow(fake.client));
    expect(brief(got)).toEqual(['QUEUED', 'connected', 'QUEUED>LAUNCHED>RUNNING', 'QUEUED>LAUNCHED>RUNNING>ERRORED']);
    expect(fake.reads()).toBe(2);
    expect((got.at(-1) as { task: TaskDetail }).task).toMatchObject({ message: 'loss diverged', endedAt: at(3) });
  });

  it('passes the connection on, and a transition told twice changes nothing', async () => {
    const lost = new NvcfError('UNAVAILABLE', 'gateway restarting');
    const fake = fakeClient(
      [now(task('QUEUED', 'LAUNCHED'))],
      [
        connected,
        pushed('LAUNCHED', 1),
        { type: 'reconnecting', attempt: 1, delayMs: 1, error: lost },
        { type: 'connected', after: 's1', attempt: 1 },
        pushed('LAUNCHED', 1),
        pushed('CANCELED', 2, 'canceled by the user'),
        'hang',
      ],
    );
    expect(brief(await collect(follow(fake.client)))).toEqual([
      'QUEUED>LAUNCHED',
      'connected',
      'reconnecting',
      'connected',
      'QUEUED>LAUNCHED>CANCELED',
    ]);
    expect(fake.reads()).toBe(1);
  });

  it('reads again after a lag (transitions conflated away) to show the ones it skipped', async () => {
    const fake = fakeClient(
      [now(task('QUEUED')), now(task('QUEUED', 'LAUNCHED', 'RUNNING'))],
      [
        pushed('QUEUED', 0),
        { type: 'lag', taskId: 't1', skippedEvents: 1, resumeAfter: 's0' },
        pushed('RUNNING', 2),
        pushed('COMPLETED', 3),
      ],
    );
    expect(brief(await collect(follow(fake.client)))).toEqual([
      'QUEUED',
      'lag',
      'QUEUED>LAUNCHED>RUNNING',
      'QUEUED>LAUNCHED>RUNNING>COMPLETED',
    ]);
    expect(fake.reads()).toBe(2);
  });

  it('does not subscribe for a task that has ended, or that it cannot see (null: gone, or another tenant’s)', async () => {
    for (const t of [task('QUEUED', 'CANCELED'), null]) {
      const fake = fakeClient([now(t)], [pushed('QUEUED', 0)]);
      expect(brief(await collect(follow(fake.client)))).toEqual([t ? 'QUEUED>CANCELED' : null]);
      expect(fake.watches).toEqual([]);
    }
  });

  it('reports a failed first read and tries again: there is nothing to follow without it', async () => {
    const fake = fakeClient(
      [() => Promise.reject(new NvcfError('UNAVAILABLE', 'down')), now(task('QUEUED', 'ERRORED'))],
      [],
    );
    const got = await collect(follow(fake.client));
    expect(brief(got)).toEqual(['error', 'QUEUED>ERRORED']);
    expect((got[0] as { error: NvcfError }).error.code).toBe('UNAVAILABLE');
  });

  it('fails when the gateway ends the stream of a task that has not ended', async () => {
    const fake = fakeClient([now(task('QUEUED'))], [connected, pushed('QUEUED', 0)]);
    await expect(collect(follow(fake.client))).rejects.toThrow('the gateway ended the task’s status stream');
  });

  it('ends quietly when the view closes while it waits for the next transition', async () => {
    const fake = fakeClient([now(task('QUEUED', 'LAUNCHED', 'RUNNING'))], [connected, 'hang']);
    const stop = new AbortController();
    const updates = follow(fake.client, stop.signal);
    expect(brief([(await updates.next()).value as TaskUpdate, (await updates.next()).value as TaskUpdate])).toEqual([
      'QUEUED>LAUNCHED>RUNNING',
      'connected',
    ]);
    const next = updates.next(); // waits on the subscription
    await new Promise((r) => setImmediate(r));
    stop.abort();
    expect(await next).toEqual({ done: true, value: undefined });
  });

  it('drops a read that answers after the view closed', async () => {
    const stop = new AbortController();
    let answer!: (t: TaskDetail) => void;
    const fake = fakeClient([() => new Promise<TaskDetail>((resolve) => (answer = resolve))]);
    const got = collect(follow(fake.client, stop.signal));
    await new Promise((r) => setImmediate(r));
    stop.abort();
    answer(task('RUNNING'));
    expect(await got).toEqual([]);
    expect(fake.watches).toEqual([]);
  });
});

describe('applyTaskEvent and mergeTask: one task told by a read, the stream and a cancel', () => {
  const event = (status: TaskStatus, n: number, message: string | null = null) =>
    (pushed(status, n, message) as { event: TaskEvent }).event;

  it('applies a transition as nvct does: the status, and at an end its time and message', () => {
    const running = applyTaskEvent(task('QUEUED', 'LAUNCHED'), event('RUNNING', 2));
    expect(running).toMatchObject({ status: 'RUNNING', endedAt: null, message: null });
    const ended = applyTaskEvent(running, event('EXCEEDED_MAX_RUNTIME', 3, 'ran past PT1H'));
    expect(ended).toMatchObject({ status: 'EXCEEDED_MAX_RUNTIME', endedAt: at(3), message: 'ran past PT1H' });
    expect(ended.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'EXCEEDED_MAX_RUNTIME']);
  });

  it('changes nothing for a transition it has, or one after its end (the same object back)', () => {
    const launched = task('QUEUED', 'LAUNCHED');
    expect(applyTaskEvent(launched, event('LAUNCHED', 1))).toBe(launched);
    const canceled = task('QUEUED', 'CANCELED');
    expect(applyTaskEvent(canceled, event('RUNNING', 2))).toBe(canceled);
  });

  it('keeps whichever is further along, with what the other adds, whatever the order', () => {
    const streamed = applyTaskEvent(task('QUEUED'), event('LAUNCHED', 1));
    const cancelAnswer = task('QUEUED', 'LAUNCHED', 'CANCELED');
    for (const [a, b] of [
      [streamed, cancelAnswer],
      [cancelAnswer, streamed],
    ])
      expect(mergeTask(a, b).events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'CANCELED']);
    // a read that lags the stream does not take the task back
    expect(mergeTask(cancelAnswer, task('QUEUED', 'LAUNCHED')).status).toBe('CANCELED');
    expect(mergeTask(task('QUEUED'), streamed).status).toBe('LAUNCHED');
  });
});

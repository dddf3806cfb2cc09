import {
  TaskDocument,
  taskEnded,
  type NvcfClient,
  type TaskDetailFieldsFragment,
  type TaskEventFieldsFragment,
  type TaskWatchItem,
} from '@nvcf/client';

export type TaskDetail = TaskDetailFieldsFragment;

/**
 * What following a task reports: the task as it is now (null: gone, or not this tenant's), a
 * failed read, or what the subscription's connection did (`connected`, `reconnecting`, …).
 */
export type TaskUpdate =
  | { type: 'task'; task: TaskDetail | null }
  | { type: 'error'; error: unknown }
  | { type: 'connection'; item: Exclude<TaskWatchItem, { type: 'event' }> };

/** How long a failed first read waits before the next: without it there is nothing to show or follow. */
export const TASK_READ_RETRY_MS = 2000;

/**
 * The task after one of its transitions, as nvct applies it (subgraphs/nvct lifecycle `advance`):
 * the status, and at an end its time and message. A task passes each status once, so a
 * transition it already has (a read and the stream both told it) or one after its end changes
 * nothing, and the same object comes back.
 */
export function applyTaskEvent(task: TaskDetail, e: TaskEventFieldsFragment): TaskDetail {
  if (taskEnded(task.status) || task.events.some((x) => x.status === e.status)) return task;
  const ends = taskEnded(e.status);
  return {
    ...task,
    status: e.status,
    endedAt: ends ? e.at : task.endedAt,
    message: ends ? e.message : task.message,
    events: [...task.events, { cursor: e.cursor, at: e.at, status: e.status, message: e.message }],
  };
}

/**
 * Two views of one task (a read and what the stream told, or a cancel's answer): whichever is
 * further along, with the other's transitions it lacks. A read may lag the stream or overtake it.
 */
export function mergeTask(a: TaskDetail, b: TaskDetail): TaskDetail {
  const aAhead = taskEnded(a.status) || (!taskEnded(b.status) && a.events.length > b.events.length);
  const [ahead, behind] = aAhead ? [a, b] : [b, a];
  return behind.events.reduce(applyTaskEvent, ahead);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * A task's detail: read once (its facts and history), then kept current by `taskStatusChanged`,
 * each transition as it arrives, until the task ends, it is gone, or `signal` aborts. The watch
 * resumes from its last cursor by itself across a broken connection (`client.watchTasks`).
 *
 * The subscription starts with a snapshot, the task's newest transition: when the read did not
 * have it, the task moved between the read and the subscription, and one more read fills the
 * gap. So does a lag (transitions conflated away) or an expired cursor. Nothing is read
 * otherwise. The subscription's refusals end this with their NvcfError; so does the gateway
 * ending the stream, which a task that has not ended gives no reason for.
 */
export async function* followTask(
  client: NvcfClient,
  id: string,
  { signal, retryMs = TASK_READ_RETRY_MS }: { signal: AbortSignal; retryMs?: number },
): AsyncGenerator<TaskUpdate> {
  const read = async () => (await client.query(TaskDocument, { id })).task;
  let found: TaskDetail | null;
  for (;;) {
    try {
      found = await read();
      break;
    } catch (error) {
      if (signal.aborted) return;
      yield { type: 'error', error };
      await pause(retryMs, signal);
      if (signal.aborted) return;
    }
  }
  // an answer to a view that has closed meanwhile is nobody's
  if (signal.aborted) return;
  yield { type: 'task', task: found };
  if (!found || taskEnded(found.status)) return;

  let task = found;
  let first = true;
  for await (const item of client.watchTasks({ taskId: id }, { snapshot: true, signal, onExpired: 'snapshot' })) {
    let next: TaskDetail = task;
    if (item.type !== 'event') {
      yield { type: 'connection', item };
      if (item.type === 'lag' || item.type === 'expired') next = await readAgain(task);
    } else {
      const known = task.events.some((e) => e.status === item.event.status);
      next = applyTaskEvent(task, item.event);
      if (first && !known) next = await readAgain(next);
      first = false;
    }
    if (signal.aborted) return;
    if (next === task) continue;
    task = next;
    yield { type: 'task', task };
    if (taskEnded(task.status)) return;
  }
  if (!signal.aborted) throw new Error('the gateway ended the task’s status stream');

  /** The task read again and merged with what is known; a failed read leaves it as it is (the stream goes on). */
  async function readAgain(known: TaskDetail): Promise<TaskDetail> {
    try {
      const fresh = await read();
      return fresh ? mergeTask(known, fresh) : known;
    } catch {
      return known;
    }
  }
}

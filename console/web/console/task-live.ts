import { TaskDocument, taskEnded, type NvcfClient, type TaskDetailFieldsFragment } from '@nvcf/client';

export type TaskDetail = TaskDetailFieldsFragment;

/** What following a task reports: the task as it is now (null: gone, or not this tenant's), or a failed read. */
export type TaskUpdate = { type: 'task'; task: TaskDetail | null } | { type: 'error'; error: unknown };

/** How often the task is read while it has not ended: modest, a task's states last seconds at least. */
export const TASK_POLL_MS = 2000;

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
 * A task's detail, read now and then again every `intervalMs` until it ends, it is gone, or
 * `signal` aborts. A failed read is reported and the next one tried: the task goes on regardless.
 *
 * The one place the task view gets its updates from: when `taskStatusChanged` exists this becomes
 * a read followed by the subscription (docs/tasks.md), and the view does not change.
 */
export async function* followTask(
  client: NvcfClient,
  id: string,
  { signal, intervalMs = TASK_POLL_MS }: { signal: AbortSignal; intervalMs?: number },
): AsyncGenerator<TaskUpdate> {
  while (!signal.aborted) {
    let task: TaskDetail | null;
    try {
      task = (await client.query(TaskDocument, { id })).task;
    } catch (error) {
      if (signal.aborted) return;
      yield { type: 'error', error };
      await pause(intervalMs, signal);
      continue;
    }
    // an answer to a view that has closed meanwhile is nobody's
    if (signal.aborted) return;
    yield { type: 'task', task };
    if (!task || taskEnded(task.status)) return;
    await pause(intervalMs, signal);
  }
}

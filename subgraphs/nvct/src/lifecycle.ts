import { fail } from '@nvcf/errors';
import { EVENTS_KEPT, NEXT, isTerminal, type TaskRecord, type TaskStatus } from './model.js';
import type { TaskStore } from './store/index.js';

/** The task after one transition, its event appended; a transition the state machine has no edge for is refused. */
export function advance(task: TaskRecord, status: TaskStatus, at: string, message: string | null = null): TaskRecord {
  if (!NEXT[task.status].includes(status))
    throw new TransitionRefused(`task ${task.id}: no transition from ${task.status} to ${status}`);
  const seq = task.seq + 1;
  const events = [...task.events, { seq, at, status, message }].slice(-EVENTS_KEPT);
  return {
    ...task,
    status,
    seq,
    events,
    runningAt: status === 'RUNNING' ? at : task.runningAt,
    endedAt: isTerminal(status) ? at : null,
    message: isTerminal(status) ? message : task.message,
  };
}

export class TransitionRefused extends Error {
  override name = 'TransitionRefused';
}

/**
 * Moves a task to `status` by compare-and-set, reading it again when another writer (a cancel, a
 * deadline, an agent's report) moved it first. Null when the task is missing or the transition is
 * no longer possible from where the task now is (it ended meanwhile).
 */
export async function transition(
  store: TaskStore,
  id: string,
  status: TaskStatus | ((t: TaskRecord) => TaskStatus | null),
  at: () => string,
  message: string | null = null,
): Promise<TaskRecord | null> {
  for (;;) {
    const [cur] = await store.get([id]);
    if (!cur) return null;
    const next = typeof status === 'function' ? status(cur) : status;
    if (!next || !NEXT[cur.status].includes(next)) return null;
    const moved = advance(cur, next, at(), message);
    if (await store.replace(cur.seq, moved)) return moved;
  }
}

/** A task of the caller's tenant, or NOT_FOUND: another tenant's task is indistinguishable from none. */
export async function ownTask(store: TaskStore, tenant: string, id: string): Promise<TaskRecord> {
  const [t] = await store.get([id]);
  if (!t || t.ncaId !== tenant) throw fail('NOT_FOUND', `task ${id} does not exist`, { field: 'id' });
  return t;
}

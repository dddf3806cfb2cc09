import { durationMs } from './duration.js';
import type { TaskRecord, TaskStatus } from './model.js';
import { transition, type TaskDeps } from './lifecycle.js';

/**
 * The deadline a task has passed at `now`, as the terminal state it ends in, or null. A task
 * still QUEUED past maxQueuedDuration (from its creation) is never launched; one RUNNING past
 * maxRuntimeDuration (from when it started running) is stopped. LAUNCHED counts as queued: it
 * has a place but has not started, so a launch that never starts still ends.
 */
export function overdue(t: TaskRecord, now: Date): { status: TaskStatus; message: string } | null {
  const since = (iso: string) => now.getTime() - Date.parse(iso);
  if ((t.status === 'QUEUED' || t.status === 'LAUNCHED') && since(t.createdAt) > durationMs(t.maxQueuedDuration)!)
    return {
      status: 'EXCEEDED_MAX_QUEUED_DURATION',
      message: `not running within maxQueuedDuration ${t.maxQueuedDuration} of its creation`,
    };
  if (t.status === 'RUNNING' && t.runningAt && since(t.runningAt) > durationMs(t.maxRuntimeDuration)!)
    return {
      status: 'EXCEEDED_MAX_RUNTIME',
      message: `still running after maxRuntimeDuration ${t.maxRuntimeDuration}; stopped`,
    };
  return null;
}

/**
 * One pass over the open tasks: each one past a deadline ends in its EXCEEDED state. Each is a
 * compare-and-set against the state it was read in, so a task that moved meanwhile (it started, it
 * completed, it was cancelled) is judged again as it now is, never ended on a stale reading.
 * `open` is a listing of the open tasks already read (the server's pass reads it once for both
 * the sweep and the placement).
 */
export async function sweepDeadlines(deps: TaskDeps, open?: TaskRecord[]): Promise<TaskRecord[]> {
  const ended: TaskRecord[] = [];
  for (const t of open ?? (await deps.store.listOpen())) {
    if (!overdue(t, deps.clock())) continue;
    const moved = await transition(deps, t.id, (cur) => overdue(cur, deps.clock()));
    if (moved) ended.push(moved);
  }
  return ended;
}

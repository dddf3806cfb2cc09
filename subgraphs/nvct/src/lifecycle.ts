import { fail } from '@nvcf/errors';
import type { Bus } from '@nvcf/bus';
import { msgIds, subjects, type StopTaskMessage, type TaskStatusEvent } from '@nvcf/contracts';
import { EVENTS_KEPT, NEXT, isTerminal, type TaskRecord, type TaskStatus } from './model.js';
import type { TaskStore } from './store/index.js';
import type { TaskMetrics } from './metrics.js';

/** Now, as the control plane sees it: tests pass a fake clock. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** What every change of a task needs: where it is stored, where its transitions go, and now. */
export interface TaskDeps {
  store: TaskStore;
  bus: Bus;
  clock: Clock;
  metrics?: TaskMetrics;
}

export class TransitionRefused extends Error {
  override name = 'TransitionRefused';
}

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

/** The newest transition of a stored task, as its status event. */
export function statusEventOf(task: TaskRecord): TaskStatusEvent {
  const last = task.events.at(-1)!;
  const previous = task.events.at(-2);
  return {
    type: 'task-status',
    ncaId: task.ncaId,
    taskId: task.id,
    seq: last.seq,
    status: last.status,
    // the task keeps its newest events only; the first has no previous status
    previousStatus: previous?.seq === last.seq - 1 ? previous.status : null,
    at: last.at,
    message: last.message,
  };
}

/**
 * Publishes the task's newest transition on its tenant's subject. After the store: the event
 * never announces what a reader could not read yet; the message id makes a repeat a duplicate.
 */
export async function announce(deps: Pick<TaskDeps, 'bus' | 'metrics'>, task: TaskRecord): Promise<void> {
  const e = statusEventOf(task);
  deps.metrics?.transitioned(e.status);
  await deps.bus.publish(subjects.taskStatus(e.ncaId, e.taskId), e, { msgId: msgIds.taskStatus(e) });
}

/** Where a task should go from the state it is in now, and why (and, launching it, where it runs); null: nowhere. */
export type Decision = (t: TaskRecord) => { status: TaskStatus; message: string | null; clusterId?: string } | null;

/** The ends the control plane decides while a workload may still run: its agent is told to stop it. */
const STOPPED: readonly TaskStatus[] = ['CANCELED', 'EXCEEDED_MAX_RUNTIME', 'EXCEEDED_MAX_QUEUED_DURATION'];

/**
 * Tells the agent of the task's cluster to stop it, when the task ended there by the control
 * plane's decision; a task never placed, or ended by its own agent's report, needs no stop.
 * The message id makes the stops of a cancel and of a racing launch one message.
 */
export async function stopOnCluster(deps: Pick<TaskDeps, 'bus'>, task: TaskRecord, clusterId = task.clusterId) {
  if (!clusterId || !STOPPED.includes(task.status)) return;
  const msg: StopTaskMessage = {
    type: 'stop-task',
    ncaId: task.ncaId,
    taskId: task.id,
    clusterId,
    reason: task.status,
  };
  await deps.bus.publish(subjects.taskWork(clusterId), msg, { msgId: msgIds.stopTask(task.id) });
}

/**
 * Moves a task where `decide` says by compare-and-set, deciding again on a fresh read when another
 * writer (a cancel, a deadline, an agent's report) moved it first, and announces the transition.
 * Null when the task is missing, or when from where it now is there is nowhere to go (it ended).
 */
export async function transition(deps: TaskDeps, id: string, decide: Decision): Promise<TaskRecord | null> {
  for (;;) {
    const [cur] = await deps.store.get([id]);
    if (!cur) return null;
    const next = decide(cur);
    if (!next || !NEXT[cur.status].includes(next.status)) return null;
    const moved = advance(cur, next.status, deps.clock().toISOString(), next.message);
    if (next.clusterId) moved.clusterId = next.clusterId;
    if (await deps.store.replace(cur.seq, moved)) {
      // each attempted whatever the other does: a status publish that failed must not also keep
      // the workload of a canceled or timed-out task running, with nothing left to stop it
      const sent = await Promise.allSettled([announce(deps, moved), stopOnCluster(deps, moved)]);
      for (const r of sent) if (r.status === 'rejected') throw r.reason;
      return moved;
    }
  }
}

/** A task of the caller's tenant, or NOT_FOUND: another tenant's task is indistinguishable from none. */
export async function ownTask(store: TaskStore, tenant: string, id: string): Promise<TaskRecord> {
  const [t] = await store.get([id]);
  if (!t || t.ncaId !== tenant) throw fail('NOT_FOUND', `task ${id} does not exist`, { field: 'id' });
  return t;
}

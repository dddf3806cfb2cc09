import { fail } from '@nvcf/errors';
import type { Bus } from '@nvcf/bus';
import { createLogger } from '@nvcf/logging';
import { msgIds, subjects, type StopTaskMessage, type TaskStatusEvent } from '@nvcf/contracts';
import { EVENTS_KEPT, NEXT, isTerminal, type TaskRecord, type TaskStatus } from './model.js';
import type { TaskStore } from './store/index.js';
import type { TaskMetrics } from './metrics.js';

const log = createLogger('nvct');

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
    // a task stored before announcements were tracked had each transition announced when it was stored
    announcedSeq: task.announcedSeq ?? task.seq,
    runningAt: status === 'RUNNING' ? at : task.runningAt,
    endedAt: isTerminal(status) ? at : null,
    message: isTerminal(status) ? message : task.message,
  };
}

/** The stored task's transition `seq` (one it still keeps), as its status event. */
export function statusEventAt(task: TaskRecord, seq: number): TaskStatusEvent {
  const i = task.events.findIndex((e) => e.seq === seq);
  if (i < 0) throw new Error(`task ${task.id} keeps no transition ${seq}`);
  const e = task.events[i];
  const previous = task.events[i - 1];
  return {
    type: 'task-status',
    ncaId: task.ncaId,
    taskId: task.id,
    seq: e.seq,
    status: e.status,
    // the task keeps its newest events only; the first has no previous status
    previousStatus: previous?.seq === e.seq - 1 ? previous.status : null,
    at: e.at,
    message: e.message,
  };
}

/** The newest transition of a stored task, as its status event. */
export const statusEventOf = (task: TaskRecord): TaskStatusEvent => statusEventAt(task, task.events.at(-1)!.seq);

/**
 * Publishes the task's transition `seq` (default its newest) on its tenant's subject. After the
 * store: the event never announces what a reader could not read yet; the message id makes a repeat
 * a duplicate.
 */
export async function announce(deps: Pick<TaskDeps, 'bus'>, task: TaskRecord, seq = task.seq): Promise<void> {
  const e = statusEventAt(task, seq);
  await deps.bus.publish(subjects.taskStatus(e.ncaId, e.taskId), e, { msgId: msgIds.taskStatus(e) });
}

/**
 * Stored transitions not known to be published yet (their status events, and the stop of a
 * control-plane end). A task stored before this was tracked has no announcedSeq: announced.
 */
export const unannounced = (t: TaskRecord) => t.announcedSeq != null && t.announcedSeq < t.seq;

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
 * Stops a task that ended while ICMS placed it, on the cluster ICMS sent its run to. One ended
 * before it was ever placed names no cluster: the cluster is stored with it and its end announced
 * again with the stop (a duplicate of the event), so the stop survives a bus outage as every
 * other does.
 */
export async function stopWhereSent(deps: TaskDeps, task: TaskRecord, clusterId: string): Promise<void> {
  if (task.clusterId || !STOPPED.includes(task.status)) return stopOnCluster(deps, task, clusterId);
  const placed = { ...task, clusterId, announcedSeq: Math.min(task.announcedSeq ?? task.seq, task.seq - 1) };
  if (await deps.store.replace(task.seq, placed)) await deliver(deps, placed);
}

/**
 * Publishes what the stored task has not announced: the status event of each transition after
 * announcedSeq, in order, and the stop of a control-plane end; then records them announced by
 * compare-and-set on seq (a newer transition, stored meanwhile, announces itself and these again).
 * Throws when a publish failed; the task stays unannounced and `redeliver` sends it all again:
 * at-least-once, and the message ids make the repeats duplicates.
 */
export async function publishPending(deps: TaskDeps, task: TaskRecord): Promise<void> {
  const after = task.announcedSeq ?? task.seq - 1;
  const announceAll = async () => {
    for (const e of task.events) if (e.seq > after) await announce(deps, task, e.seq);
  };
  // each attempted whatever the other does: a status publish that failed must not also keep the
  // workload of a canceled or timed-out task running
  const sent = await Promise.allSettled([announceAll(), stopOnCluster(deps, task)]);
  for (const r of sent) if (r.status === 'rejected') throw r.reason;
  await deps.store.replace(task.seq, { ...task, announcedSeq: task.seq });
}

/**
 * Publishes a transition just stored. A failure (the bus unavailable) is not the caller's: the
 * transition is stored, and the next `redeliver` publishes it.
 */
export async function deliver(deps: TaskDeps, task: TaskRecord): Promise<void> {
  try {
    await publishPending(deps, task);
  } catch (err) {
    log.warn(`task ${task.id}: ${task.status} is stored but not published yet; the sweep sends it again`, err);
  }
}

/**
 * Publishes every stored transition not announced yet: the sweep's safety net for publishes that
 * failed (the bus was down) or were cut short (the process died between store and publish). Stops
 * at the first failure: the bus is likely still unavailable, and the next pass tries again.
 */
export async function redeliver(deps: TaskDeps): Promise<number> {
  let sent = 0;
  for (const t of await deps.store.listUnannounced()) {
    await publishPending(deps, t);
    sent++;
  }
  return sent;
}

/**
 * Moves a task where `decide` says by compare-and-set, deciding again on a fresh read when another
 * writer (a cancel, a deadline, an agent's report) moved it first, and announces the transition
 * (stored first, then published: `deliver`). Null when the task is missing, or when from where it
 * now is there is nowhere to go (it ended).
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
      deps.metrics?.transitioned(moved.status);
      await deliver(deps, moved);
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

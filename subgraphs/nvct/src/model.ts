import type { TaskStatus } from '@nvcf/contracts';
import type { CheckedWorkload } from '@nvcf/operators';

export type { TaskStatus };

/** Where a task may go from each state; a terminal state goes nowhere (tasks are never updated). */
export const NEXT: Record<TaskStatus, readonly TaskStatus[]> = {
  QUEUED: ['LAUNCHED', 'ERRORED', 'CANCELED', 'EXCEEDED_MAX_QUEUED_DURATION'],
  // a launch that never starts running is held to the queue deadline
  LAUNCHED: ['RUNNING', 'COMPLETED', 'ERRORED', 'CANCELED', 'EXCEEDED_MAX_QUEUED_DURATION'],
  RUNNING: ['COMPLETED', 'ERRORED', 'CANCELED', 'EXCEEDED_MAX_RUNTIME'],
  COMPLETED: [],
  ERRORED: [],
  CANCELED: [],
  EXCEEDED_MAX_RUNTIME: [],
  EXCEEDED_MAX_QUEUED_DURATION: [],
};

export const OPEN_STATUSES = ['QUEUED', 'LAUNCHED', 'RUNNING'] as const satisfies readonly TaskStatus[];
export const isTerminal = (s: TaskStatus) => NEXT[s].length === 0;

export interface TaskEventRecord {
  /** the task's own transition counter: 1 for QUEUED, one more for each transition */
  seq: number;
  at: string;
  status: TaskStatus;
  message: string | null;
}

export type JsonObject = Record<string, unknown>;

export type TaskRecord = CheckedWorkload & {
  id: string;
  ncaId: string;
  name: string;
  status: TaskStatus;
  /** Helm values (helm tasks) and nvcfSimulate */
  configuration: JsonObject | null;
  gpu: string;
  instanceType: string;
  clusters: string[];
  regions: string[];
  maxRuntimeDuration: string;
  maxQueuedDuration: string;
  terminationGracePeriodDuration: string;
  /** the cluster ICMS placed it on (from LAUNCHED); absent on tasks stored before placement */
  clusterId?: string | null;
  createdAt: string;
  /** when it became RUNNING: its runtime deadline counts from here */
  runningAt: string | null;
  endedAt: string | null;
  message: string | null;
  /** seq of its newest transition: the compare-and-set token of every change */
  seq: number;
  /**
   * seq of the newest transition whose status event (and the stop a control-plane end sends) is
   * published; below seq, the sweep publishes the rest. Absent on tasks stored before it was kept.
   */
  announcedSeq?: number;
  /** the newest EVENTS_KEPT transitions, oldest first */
  events: TaskEventRecord[];
};

/** What a TaskStatusEvent resolves from: one transition and the task it belongs to. */
export interface TaskEventView {
  event: TaskEventRecord;
  task: TaskRecord;
}

/** How many transitions a task keeps; a task has at most five, so every one is kept today. */
export const EVENTS_KEPT = 16;

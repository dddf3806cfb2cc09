import type { TaskRecord, TaskStatus } from '../model.js';

export interface ListQuery {
  /** only tasks in this status */
  status: TaskStatus | null;
  limit: number;
  /** strictly after this position in the newest-first order */
  after: { createdAt: string; id: string } | null;
}

/** nvct's persistence port: memory (embedded default) and Cassandra implement it. */
export interface TaskStore extends AsyncDisposable {
  create(task: TaskRecord): Promise<void>;
  get(ids: readonly string[]): Promise<(TaskRecord | null)[]>;
  /** a tenant's tasks, newest first (createdAt, then id, descending) */
  list(ncaId: string, q: ListQuery): Promise<TaskRecord[]>;
  /** compare-and-set on the task's seq: false when another transition was stored first */
  replace(expectedSeq: number, next: TaskRecord): Promise<boolean>;
  /** every task not in a terminal state, of every tenant (the deadline sweep) */
  listOpen(): Promise<TaskRecord[]>;
  /** every task with a stored transition not announced yet (announcedSeq < seq), open or ended */
  listUnannounced(): Promise<TaskRecord[]>;
  dispose(): Promise<void>;
}

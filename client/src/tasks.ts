import type { TaskStatus } from './generated/graphql.js';

/** Every task status, in lifecycle order (docs/tasks.md): the ones a task passes through, then its ends. */
export const TASK_STATUSES: readonly TaskStatus[] = [
  'QUEUED',
  'LAUNCHED',
  'RUNNING',
  'COMPLETED',
  'ERRORED',
  'CANCELED',
  'EXCEEDED_MAX_RUNTIME',
  'EXCEEDED_MAX_QUEUED_DURATION',
];

/** The statuses a task ends in: nothing changes it afterwards, so a watch stops at the first. */
export const TASK_TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(TASK_STATUSES.slice(3));

export const taskEnded = (status: TaskStatus): boolean => TASK_TERMINAL_STATUSES.has(status);

import type { StatusEvent, TaskStatusEvent as TaskTransition } from '@nvcf/contracts';
import type { Instance, InstanceStatusEvent } from './generated/schema.js';
import type { Task, TaskStatusEvent } from './generated/tasks.js';
import type { FeedEvent } from './types.js';

/**
 * Instance as the status subgraph resolves it (its own fields, from the generated schema types),
 * with the entity references the other subgraphs resolve: the gateway executes the public schema
 * locally and reads `cluster { id }` and `gpuSpecification { id }` from them; the subgraph's own
 * schema has no such fields, so there they are never read.
 */
export type InstancePayload = Instance & { cluster: { id: string }; gpuSpecification: { id: string } };

/**
 * InstanceStatusEvent with every field required (the generated types avoid optionals): a field
 * added to the schema is a compile error here until it has a value. `instance` is the caller's:
 * the event's own, or one loaded from the supergraph (or the error that load failed with).
 */
export type StatusPayload<I = InstancePayload> = Omit<InstanceStatusEvent, 'instance'> & { instance: I };

/** The instance an event describes, without asking any other subgraph. */
export const toInstancePayload = (e: StatusEvent): InstancePayload => ({
  id: e.instanceId,
  state: e.state,
  revisionId: e.revisionId,
  // events of agents older than targetRevisionId have none: null, as on every other transition
  targetRevisionId: e.targetRevisionId ?? null,
  updatedAt: e.at,
  cluster: { id: e.clusterId },
  gpuSpecification: { id: e.gpuSpecificationId },
});

/** One feed event as the GraphQL status object, the one place its fields get their values. */
export const toStatusPayload = <I>(fe: FeedEvent, instance: I): StatusPayload<I> => ({
  cursor: fe.cursor,
  instance,
  state: fe.event.state,
  previousState: fe.event.previousState,
  revisionId: fe.event.revisionId,
  targetRevisionId: fe.event.targetRevisionId ?? null,
  at: fe.event.at,
  message: fe.event.message ?? null,
  kind: fe.kind,
  lag: fe.lag,
});

/**
 * TaskStatusEvent with every field required, as StatusPayload is for instances. `task` is the
 * caller's: the event's own fields, or the task loaded from the supergraph (or that load's error).
 */
export type TaskStatusPayload<T = TaskPayload> = Omit<TaskStatusEvent, 'task'> & { task: T };

/** The task fields an event carries itself: the rest are nvct's, loaded through the supergraph. */
export type TaskPayload = Pick<Task, 'id' | 'status'>;

export const toTaskPayload = (e: TaskTransition): TaskPayload => ({ id: e.taskId, status: e.status });

/** One task feed event as the GraphQL object, the one place its fields get their values. */
export const toTaskStatusPayload = <T>(fe: FeedEvent<TaskTransition>, task: T): TaskStatusPayload<T> => ({
  cursor: fe.cursor,
  at: fe.event.at,
  status: fe.event.status,
  message: fe.event.message,
  task,
  lag: fe.lag,
});

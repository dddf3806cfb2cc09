import type { StatusEvent, TaskStatusEvent } from '@nvcf/contracts';
import {
  instanceStatus,
  taskStatus,
  toInstancePayload,
  toStatusPayload,
  toTaskPayload,
  toTaskStatusPayload,
  type FeedEvent,
  type StreamEvent,
} from '@nvcf/status-stream';

/**
 * How the entity subtree of a selection is asked of the supergraph when it needs more than the
 * event holds: by a list field over every id of a batch at once (`field(ids: [ID!]!): [Entity]!`,
 * one entry per id in the order asked, null for one the tenant cannot see).
 */
export interface EntityQuery {
  /** the remote query's operation name */
  operation: string;
  /** the Query field taking the batch's ids */
  field: string;
}

/**
 * One event-driven root field of the gateway: the stream it reads, the entity its events
 * describe, which of that entity's fields the event carries itself (the rest come from the
 * supergraph), and how an event becomes the field's value. The status path (operation, results,
 * service) serves every field of STATUS_FIELDS the same way.
 */
export interface StatusField<E extends StreamEvent = StreamEvent> {
  /** the root field, and the name of its stream's definition (StatusService reads that stream for it) */
  name: string;
  /** the event's field holding the entity (`instance`, `task`) */
  entity: string;
  /** entity fields every event carries itself: no supergraph fetch needed for them */
  localFields: ReadonlySet<string>;
  /**
   * Entities the event names by key: selecting only their key needs no fetch either, as a
   * federation planner answers `{ cluster { id } }` from the key it already holds.
   */
  keyedFields: ReadonlySet<string>;
  remote: EntityQuery;
  /** the entity as the event alone describes it */
  local(e: E): unknown;
  /** the id of the entity an event is a transition of */
  entityOf(e: E): string;
  /** the root value an event executes on: the field's payload, with the entity given */
  root(fe: FeedEvent<E>, entity: unknown): Record<string, unknown>;
}

const instanceStatusChanged: StatusField<StatusEvent> = {
  name: 'instanceStatusChanged',
  entity: 'instance',
  localFields: new Set(['id', 'state', 'revisionId', 'targetRevisionId', 'updatedAt', '__typename']),
  keyedFields: new Set(['cluster', 'gpuSpecification']),
  remote: { operation: 'NvcfStatusInstances', field: 'instances' },
  local: toInstancePayload,
  entityOf: (e) => instanceStatus.entityOf(e),
  root: (fe, instance) => ({ instanceStatusChanged: toStatusPayload(fe, instance) }),
};

const taskStatusChanged: StatusField<TaskStatusEvent> = {
  name: 'taskStatusChanged',
  entity: 'task',
  // the status is the task's after the transition the event is: the task's status at that point
  localFields: new Set(['id', 'status', '__typename']),
  keyedFields: new Set(),
  remote: { operation: 'NvcfStatusTasks', field: 'tasksByIds' },
  local: toTaskPayload,
  entityOf: (e) => taskStatus.entityOf(e),
  root: (fe, task) => ({ taskStatusChanged: toTaskStatusPayload(fe, task) }),
};

/** Every root field the status path serves, by name. */
export const STATUS_FIELDS: ReadonlyMap<string, StatusField> = new Map<string, StatusField>([
  [instanceStatusChanged.name, instanceStatusChanged],
  [taskStatusChanged.name, taskStatusChanged],
]);

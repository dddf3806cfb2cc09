import { Streams, subjects, type StatusEvent, type TaskStatusEvent } from '@nvcf/contracts';
import { matches, type StatusFilter, type StreamEvent } from './types.js';

/**
 * What one status stream is to its subscribers: where its events are, how a filter selects them,
 * and which events are of one entity (conflation and ordering are per entity). The instance and
 * the task streams are two of these over one mechanism (StatusStream, SubscriberFeed).
 */
export interface StreamDefinition<E extends StreamEvent, F> {
  /** the subscription field it serves, for messages and metrics */
  field: string;
  /** what its events are transitions of, for messages */
  entity: string;
  /** the JetStream stream */
  stream: string;
  /** the subjects of one tenant's events: the only ones a catch-up reads */
  subjectsOfTenant(tenant: string): string;
  /** filter fields that name an event's own value, most selective first: a feed is indexed under the first it sets */
  indexed: readonly (keyof F & keyof E & string)[];
  /** the filter that selects every event of a tenant is allowed; otherwise one indexed field is required */
  tenantWide: boolean;
  /** why a filter was refused, when not tenantWide */
  filterRequired?: { message: string; field: string };
  matches(f: F, e: E): boolean;
  /** the entity an event is a transition of */
  entityOf(e: E): string;
  /** orders one entity's transitions: a lower one after a higher one is stale */
  clockOf(e: E): number;
  /**
   * What cursors are signed for besides the tenant, so that one stream's cursor is refused by
   * another; empty for the instance stream, whose cursors predate this.
   */
  cursorScope: string;
  /** the Prometheus metric prefix */
  metricsPrefix: string;
}

/** instanceStatusChanged: every transition of every instance (NVCA agents publish them). */
export const instanceStatus: StreamDefinition<StatusEvent, StatusFilter> = {
  field: 'instanceStatusChanged',
  entity: 'instance',
  stream: Streams.status.name,
  subjectsOfTenant: subjects.statusOfTenant,
  indexed: ['instanceId', 'gpuSpecificationId', 'versionId', 'functionId'],
  tenantWide: false,
  filterRequired: {
    message: 'instanceStatusChanged needs at least one of functionId, versionId, gpuSpecificationId, instanceId',
    field: 'functionId',
  },
  matches,
  entityOf: (e) => e.instanceId,
  clockOf: (e) => e.clock,
  cursorScope: '',
  metricsPrefix: 'nvcf_status',
};

export interface TaskFilter {
  taskId?: string | null;
}

/** taskStatusChanged: every transition of every task (nvct publishes them); no taskId is the whole tenant. */
export const taskStatus: StreamDefinition<TaskStatusEvent, TaskFilter> = {
  field: 'taskStatusChanged',
  entity: 'task',
  stream: Streams.taskStatus.name,
  subjectsOfTenant: subjects.taskStatusOfTenant,
  indexed: ['taskId'],
  tenantWide: true,
  matches: (f, e) => !f.taskId || f.taskId === e.taskId,
  entityOf: (e) => e.taskId,
  clockOf: (e) => e.seq,
  cursorScope: 'task',
  metricsPrefix: 'nvcf_task_status',
};

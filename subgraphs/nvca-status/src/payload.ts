import type { FeedEvent } from '@nvcf/status-stream';

/** The GraphQL shape of one feed event (InstanceStatusEvent). */
export const toPayload = (fe: FeedEvent) => ({
  cursor: fe.cursor,
  instance: {
    id: fe.event.instanceId,
    state: fe.event.state,
    revisionId: fe.event.revisionId,
    targetRevisionId: fe.event.targetRevisionId ?? null,
    updatedAt: fe.event.at,
  },
  state: fe.event.state,
  previousState: fe.event.previousState,
  revisionId: fe.event.revisionId,
  // events of agents older than the field have none: null, as on every other transition
  targetRevisionId: fe.event.targetRevisionId ?? null,
  at: fe.event.at,
  message: fe.event.message ?? null,
  kind: fe.kind,
  lag: fe.lag,
});

import type { StatusEvent } from '@nvcf/contracts';

/**
 * The subscription benchmarks' event: an instance reporting ACTIVE again, with the send time in
 * `message` where the load measures latency. Only who it belongs to varies between them.
 */
export const activeAgain = (
  e: Pick<StatusEvent, 'ncaId' | 'functionId' | 'versionId' | 'instanceId' | 'clock'> &
    Partial<Pick<StatusEvent, 'gpuSpecificationId' | 'clusterId' | 'revisionId' | 'message'>>,
): StatusEvent => ({
  gpuSpecificationId: 's',
  clusterId: 'cluster-a',
  revisionId: null,
  state: 'ACTIVE',
  previousState: 'ACTIVE',
  at: new Date().toISOString(),
  ...e,
});

import { type Bus, type Consumer, type StartAt } from '@nvcf/bus';
import { Streams, readerOf, statusEventOf } from '@nvcf/contracts';
import type { StatusStore } from './store/index.js';

/** Keeps the latest status of every instance (Instance.state and friends). */
export async function consumeStatus(
  store: StatusStore,
  bus: Bus,
  consumer = 'nvca-status',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume(readerOf(Streams.status, consumer, startAt), async ({ data, seq }) => {
    const e = statusEventOf(data);
    await store.record({
      instanceId: e.instanceId,
      ncaId: e.ncaId,
      functionId: e.functionId,
      versionId: e.versionId,
      gpuSpecificationId: e.gpuSpecificationId,
      clusterId: e.clusterId,
      state: e.state,
      revisionId: e.revisionId,
      targetRevisionId: e.targetRevisionId ?? null,
      updatedAt: e.at,
      clock: e.clock,
      seq,
    });
  });
}

import { Streams, durableName, type Bus, type Consumer, type StatusEvent } from '@nvcf/messaging';
import type { IcmsStore } from './store/index.js';
import { isLive } from './model.js';

/** ICMS tracks instance state (for the current set and placement) from the status stream. */
export async function consumeStatus(store: IcmsStore, bus: Bus, consumer = 'icms'): Promise<Consumer> {
  return bus.consume<StatusEvent>(
    { stream: Streams.status.name, durable: durableName(Streams.status.name, consumer), ackWaitMs: 30_000, maxAckPending: 256 },
    async ({ data: e }) => {
      const changed = await store.recordState(e.instanceId, e.state, e.revisionId, e.clock, e.at);
      if (!changed || e.state !== 'TERMINATED') return;
      // the single-tenant lock ends with the last operator instance on the cluster
      const [cluster] = await store.getClusters([e.clusterId]);
      if (!cluster?.dedicatedTo) return;
      const remaining = (await store.listInstancesByCluster(e.clusterId)).filter((i) => i.singleTenant && isLive(i));
      if (!remaining.length) await store.setDedication(e.clusterId, cluster.dedicatedTo, null);
    },
  );
}

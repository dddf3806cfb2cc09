import { PoisonMessage, type Bus, type Consumer, type StartAt } from '@nvcf/bus';
import { Streams, readerOf, statusEventOf, type ClusterOperatorsMessage } from '@nvcf/contracts';
import type { IcmsStore } from './store/index.js';

/** ICMS tracks instance state (for the current set and placement) from the status stream. */
export async function consumeStatus(
  store: IcmsStore,
  bus: Bus,
  consumer = 'icms',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume(readerOf(Streams.status, consumer, startAt), async ({ data }) => {
    const e = statusEventOf(data);
    await store.recordState(e.instanceId, e.state, e.revisionId, e.clock, e.at);
    if (e.state !== 'TERMINATED') return;
    // the single-tenant lock ends with the last operator instance on the cluster, once the agent
    // reported it TERMINATED (its objects gone): a FAILED one still has its namespace there. A
    // redelivered TERMINATED checks again, which finds the lock already gone (terminations are rare)
    const [cluster] = await store.getClusters([e.clusterId]);
    if (!cluster?.dedicatedTo) return;
    const remaining = (await store.listInstancesByCluster(e.clusterId)).filter(
      (i) => i.singleTenant && i.state !== 'TERMINATED',
    );
    if (!remaining.length) await store.setDedication(e.clusterId, cluster.dedicatedTo, null);
  });
}

/** ICMS keeps each agent's newest report of the operator CRDs its cluster serves (placement reads it). */
export async function consumeClusterReports(
  store: IcmsStore,
  bus: Bus,
  consumer = 'icms',
  startAt?: StartAt,
): Promise<Consumer> {
  return bus.consume<ClusterOperatorsMessage>(readerOf(Streams.cluster, consumer, startAt, 64), async ({ data: m }) => {
    if (
      !m ||
      m.type !== 'operators' ||
      typeof m.clusterId !== 'string' ||
      !Array.isArray(m.operators) ||
      typeof m.clock !== 'number'
    ) {
      throw new PoisonMessage('not a ClusterOperatorsMessage');
    }
    await store.setOperatorReport(m.clusterId, { clock: m.clock, at: m.at, operators: m.operators });
  });
}

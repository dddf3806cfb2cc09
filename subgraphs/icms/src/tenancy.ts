import type { ClusterRecord } from './model.js';
import type { IcmsStore } from './store/index.js';

/**
 * Dedicates the cluster to the tenant of an operator workload (an instance or a task): false when
 * another tenant's operator workload took it first (the lock is a compare-and-set).
 */
export async function dedicate(store: IcmsStore, c: ClusterRecord, tenant: string): Promise<boolean> {
  return c.dedicatedTo === tenant || store.setDedication(c.id, null, tenant);
}

/**
 * Ends the cluster's single-tenant lock once no operator workload remains there: no operator
 * instance the agent has not reported TERMINATED (a FAILED one still has its namespace there) and
 * no operator task that has not ended. Called again for a redelivered end, it finds the lock gone.
 */
export async function releaseIfUnused(store: IcmsStore, clusterId: string): Promise<void> {
  const [cluster] = await store.getClusters([clusterId]);
  if (!cluster?.dedicatedTo) return;
  const [instances, tasks] = await Promise.all([
    store.listInstancesByCluster(clusterId),
    store.listTasksByCluster(clusterId),
  ]);
  if (instances.some((i) => i.singleTenant && i.state !== 'TERMINATED')) return;
  if (tasks.some((t) => t.singleTenant && !t.ended)) return;
  await store.setDedication(clusterId, cluster.dedicatedTo, null);
}

import { fail } from '@nvcf/errors';
import type { PlacementRequest } from '@nvcf/contracts';
import type { ClusterRecord, InstanceRecord } from './model.js';

/** The single-tenancy refusals, as NO_ELIGIBLE_CLUSTER lists them per cluster (docs/operators.md quotes them). */
export const TENANCY_REFUSAL = {
  dedicated: "single-tenant: it hosts another tenant's operator workload",
  shared: "hosts other tenants' workloads, and operator workloads need a single-tenant cluster",
} as const;

export const mayUse = (c: ClusterRecord, tenant: string) =>
  c.authorizedNcaIds.includes(tenant) && (c.dedicatedTo == null || c.dedicatedTo === tenant);

/** A workload running on a cluster, by tenant: a live instance or a task that has not ended. */
export type Occupant = Pick<InstanceRecord, 'ncaId'>;

/** Why a cluster cannot take this request, or null when it can. */
function refusal(c: ClusterRecord, tenant: string, p: PlacementRequest, live: readonly Occupant[]): string | null {
  if (!c.authorizedNcaIds.includes(tenant)) return 'not authorized for the tenant';
  if (c.dedicatedTo && c.dedicatedTo !== tenant) return TENANCY_REFUSAL.dedicated;
  if (p.clusters.length && !p.clusters.includes(c.id) && !p.clusters.includes(c.name))
    return 'not in the requested clusters';
  if (p.regions.length && !c.regions.some((r) => p.regions.includes(r))) return 'not in the requested regions';
  const gpu = c.gpus.find((g) => g.name === p.gpu);
  if (!gpu) return `no ${p.gpu} GPUs`;
  if (!gpu.instanceTypes.includes(p.instanceType)) return `no instance type ${p.instanceType}`;
  const missing = p.attributes.filter((a) => !c.attributes.includes(a));
  if (missing.length) return `missing attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  // the attribute says the operator runs there; its agent may have found its CRDs missing
  const absent = (c.operators?.operators ?? []).filter(
    (o) => p.attributes.includes(o.clusterAttribute) && o.missingCrds.length,
  );
  if (absent.length)
    return absent
      .map(
        (o) =>
          `operator type '${o.operatorType}' not installed (its agent reported CRD ${o.missingCrds.join(', ')} missing at ${c.operators!.at})`,
      )
      .join('; ');
  if (p.singleTenant && live.some((i) => i.ncaId !== tenant)) return TENANCY_REFUSAL.shared;
  return null;
}

/** Eligible clusters, least loaded first; the error lists why each cluster was refused. */
export function eligibleClusters(
  clusters: ClusterRecord[],
  /** the workloads running on each cluster (live instances, tasks not ended) */
  liveByCluster: Map<string, readonly Occupant[]>,
  tenant: string,
  p: PlacementRequest,
  where: string,
): ClusterRecord[] {
  const reasons: string[] = [];
  const ok: ClusterRecord[] = [];
  for (const c of clusters) {
    const why = refusal(c, tenant, p, liveByCluster.get(c.id) ?? []);
    if (why) {
      if (c.authorizedNcaIds.includes(tenant)) reasons.push(`${c.name}: ${why}`);
    } else ok.push(c);
  }
  if (!ok.length) {
    throw fail(
      'NO_ELIGIBLE_CLUSTER',
      `${where}: no eligible cluster for ${p.gpu}/${p.instanceType}${p.attributes.length ? ` with ${p.attributes.join(', ')}` : ''}${reasons.length ? ` (${reasons.join('; ')})` : ' (the tenant may use no cluster)'}`,
      { gpu: p.gpu, instanceType: p.instanceType },
    );
  }
  const load = (c: ClusterRecord) => (liveByCluster.get(c.id) ?? []).length;
  return ok.sort((a, b) => load(a) - load(b) || a.id.localeCompare(b.id));
}

import { fail } from '@nvcf/errors';
import type { PlacementRequest } from '@nvcf/contracts';
import type { ClusterGpu, ClusterRecord, GpuUse, InstanceRecord } from './model.js';

/** The single-tenancy refusals, as NO_ELIGIBLE_CLUSTER lists them per cluster (docs/operators.md quotes them). */
export const TENANCY_REFUSAL = {
  dedicated: "single-tenant: it hosts another tenant's operator workload",
  shared: "hosts other tenants' workloads, and operator workloads need a single-tenant cluster",
} as const;

export const mayUse = (c: ClusterRecord, tenant: string) =>
  c.authorizedNcaIds.includes(tenant) && (c.dedicatedTo == null || c.dedicatedTo === tenant);

/** A workload running on a cluster, by tenant: a live instance or a task that has not ended, and the GPUs it holds. */
export type Occupant = Pick<InstanceRecord, 'ncaId'> & { gpus?: GpuUse };

/** The cluster's entry for the requested GPU kind, if it offers it. */
const offered = (c: ClusterRecord, p: PlacementRequest): ClusterGpu | undefined => c.gpus.find((g) => g.name === p.gpu);

/** GPUs an instance of the instance type takes on a cluster offering `gpu`. */
const gpusPerInstance = (gpu: ClusterGpu, instanceType: string): number => gpu.gpusPerInstance?.[instanceType] ?? 1;

/**
 * GPUs of the kind in use on a cluster. A workload stored before ICMS recorded its GPUs (an
 * upgrade) counts as one of every kind there: the cluster is never overbooked, and the count is
 * exact again once those workloads end.
 */
function gpusInUse(live: readonly Occupant[], name: string): number {
  return live.reduce((n, o) => n + (o.gpus ? (o.gpus.name === name ? o.gpus.count : 0) : 1), 0);
}

/** GPUs of the kind still free on the cluster; Infinity when its capacity is not known. */
function freeGpus(gpu: ClusterGpu, live: readonly Occupant[]): number {
  return gpu.capacity == null ? Infinity : gpu.capacity - gpusInUse(live, gpu.name);
}

/** Why a cluster cannot take this request, or null when it can. */
function refusal(c: ClusterRecord, tenant: string, p: PlacementRequest, live: readonly Occupant[]): string | null {
  if (!c.authorizedNcaIds.includes(tenant)) return 'not authorized for the tenant';
  if (c.dedicatedTo && c.dedicatedTo !== tenant) return TENANCY_REFUSAL.dedicated;
  if (p.clusters.length && !p.clusters.includes(c.id) && !p.clusters.includes(c.name))
    return 'not in the requested clusters';
  if (p.regions.length && !c.regions.some((r) => p.regions.includes(r))) return 'not in the requested regions';
  const gpu = offered(c, p);
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
  // last: the one refusal that passes by itself, as workloads end (a task waits for it)
  const need = gpusPerInstance(gpu, p.instanceType);
  if (gpu.capacity != null && need > gpu.capacity)
    return `too small: ${p.instanceType} needs ${need} ${gpu.name}, the cluster has ${gpu.capacity}`;
  if (freeGpus(gpu, live) < need) {
    const used = gpusInUse(live, gpu.name);
    return `full: ${used} of ${gpu.capacity} ${gpu.name} in use${need > 1 ? `, ${p.instanceType} needs ${need}` : ''}`;
  }
  return null;
}

/**
 * Eligible clusters, most free GPUs of the requested kind first (a cluster of unknown capacity
 * before any), then least loaded; the error lists why each cluster was refused.
 */
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
  const free = new Map(ok.map((c) => [c, freeGpus(offered(c, p)!, liveByCluster.get(c.id) ?? [])]));
  // Infinity - Infinity is NaN: two clusters of unknown capacity tie
  const byFree = (a: ClusterRecord, b: ClusterRecord) =>
    free.get(a) === free.get(b) ? 0 : free.get(b)! - free.get(a)!;
  return ok.sort((a, b) => byFree(a, b) || load(a) - load(b) || a.id.localeCompare(b.id));
}

/** The GPUs a workload of the request holds on the cluster (eligible for it: it offers the GPU). */
export function gpuUse(c: ClusterRecord, p: PlacementRequest): GpuUse {
  return { name: p.gpu, count: gpusPerInstance(offered(c, p)!, p.instanceType) };
}

/**
 * The node labels of the request's instance type on the cluster (eligible for it), which its pod
 * must land on; undefined when the record names none: the pod may run on any node with its GPUs.
 */
export function nodeSelectorOf(c: ClusterRecord, p: PlacementRequest): Record<string, string> | undefined {
  return offered(c, p)!.nodeSelectors?.[p.instanceType];
}

/**
 * A cluster for each of `count` workloads of the request, each on the cluster eligibleClusters
 * would put first once the ones before it are placed, and each appended to its cluster's list in
 * `liveByCluster` (the next placement from the same map sees them). The refusals are decided once:
 * within one launch only the free GPUs and the load change, and they are counted down here rather
 * than summed again over every cluster's workloads per instance. NO_ELIGIBLE_CLUSTER when they do
 * not all fit.
 */
export function placeEach(
  clusters: ClusterRecord[],
  liveByCluster: Map<string, Occupant[]>,
  tenant: string,
  p: PlacementRequest,
  where: string,
  count: number,
): ClusterRecord[] {
  if (count <= 0) return [];
  const candidates = eligibleClusters(clusters, liveByCluster, tenant, p, where).map((c) => {
    const gpu = offered(c, p)!;
    const live = liveByCluster.get(c.id) ?? [];
    if (!liveByCluster.has(c.id)) liveByCluster.set(c.id, live);
    return { c, live, need: gpusPerInstance(gpu, p.instanceType), free: freeGpus(gpu, live) };
  });
  const out: ClusterRecord[] = [];
  for (let n = 0; n < count; n++) {
    // eligibleClusters' order: most free GPUs (unknown capacity first), then least loaded, then id
    let best: (typeof candidates)[number] | undefined;
    for (const k of candidates) {
      if (k.free < k.need) continue;
      if (
        !best ||
        (k.free !== best.free
          ? k.free > best.free
          : k.live.length !== best.live.length
            ? k.live.length < best.live.length
            : k.c.id.localeCompare(best.c.id) < 0)
      )
        best = k;
    }
    if (!best) {
      // every one full now: eligibleClusters refuses, with each cluster's reason
      eligibleClusters(clusters, liveByCluster, tenant, p, `${where}: room for ${n} of ${count} instances`);
      throw new Error('placement: no cluster has room, yet none was refused');
    }
    const { c, live, need } = best;
    live.push({ ncaId: tenant, gpus: { name: p.gpu, count: need } });
    best.free -= need;
    out.push(c);
  }
  return out;
}

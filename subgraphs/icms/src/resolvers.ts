import DataLoader from 'dataloader';
import { DateTimeScalar, loadByIds, required, type TenantContext } from '@nvcf/subgraph-kit';
import type { IcmsStore } from './store/index.js';
import type { InstanceRecord } from './model.js';
import type { Resolvers } from './generated/resolvers.js';
import { mayUse } from './placement.js';

export function createLoaders(store: IcmsStore) {
  return {
    instances: new DataLoader((ids: readonly string[]) => store.getInstances(ids)),
    instancesBySpec: new DataLoader((ids: readonly string[]) => store.listInstancesBySpec(ids)),
    clusters: new DataLoader((ids: readonly string[]) => store.getClusters(ids)),
    actionsBySpec: new DataLoader((ids: readonly string[]) => store.listUpdateActions(ids)),
  };
}

export interface IcmsContext extends TenantContext {
  loaders: ReturnType<typeof createLoaders>;
}

/**
 * loadMany answers a failed batch (the store down) with Error entries; a missing row is null.
 * Read as "no such instance" they would hide an outage: the field fails instead (UNAVAILABLE).
 */
const loaded = <T>(items: (T | Error)[]): T[] =>
  items.map((i) => {
    if (i instanceof Error) throw i;
    return i;
  });
const own = <T extends { ncaId: string }>(ctx: IcmsContext, rec: T | null | undefined) =>
  rec && rec.ncaId === ctx.tenant ? rec : null;

/**
 * Listed instances: not TERMINATED, and reported by their agent at least once (not REQUESTED):
 * their state comes from nvca-status, which knows no state for an unreported instance.
 */
const visible = (i: InstanceRecord) => i.state !== 'TERMINATED' && i.state !== 'REQUESTED';
/** An instance its agent has not reported yet has no state anywhere: null, as listing leaves it out. */
const reported = (i: InstanceRecord | null) => (i && i.state !== 'REQUESTED' ? i : null);

export function resolvers(store: IcmsStore): Resolvers {
  return {
    DateTime: DateTimeScalar,
    Query: {
      clusters: async (_, __, ctx) => (await store.listClusters()).filter((c) => mayUse(c, ctx.tenant)),
      instance: async (_, { id }, ctx) => reported(own(ctx, await ctx.loaders.instances.load(id))),
      instances: async (_, { ids }, ctx) =>
        (await loadByIds('instances', ctx.loaders.instances, ids)).map((i) => reported(own(ctx, i))),
    },
    Instance: {
      __resolveReference: async ({ id }, ctx) => own(ctx, await ctx.loaders.instances.load(id)),
      gpuSpecification: (i) => ({ id: i.gpuSpecificationId }),
      cluster: (i, _, ctx) =>
        required(`cluster ${i.clusterId} of instance ${i.id}`, ctx.loaders.clusters.load(i.clusterId)),
    },
    Cluster: {
      __resolveReference: async ({ id }, ctx) => {
        const c = await ctx.loaders.clusters.load(id);
        return c && c.authorizedNcaIds.includes(ctx.tenant) ? c : null;
      },
      gpus: (c) => c.gpus,
    },
    GpuSpecification: {
      __resolveReference: (ref) => ref,
      instances: async ({ id }, _, ctx) =>
        (await ctx.loaders.instancesBySpec.load(id)).filter((i) => i.ncaId === ctx.tenant && visible(i)),
      updateActions: async ({ id }, _, ctx) =>
        (await ctx.loaders.actionsBySpec.load(id)).filter((a) => a.ncaId === ctx.tenant),
    },
    UpdateAction: {
      targets: async (a, _, ctx) =>
        loaded(await ctx.loaders.instances.loadMany(a.targets)).filter((i): i is InstanceRecord => !!i),
    },
  };
}

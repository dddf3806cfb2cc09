import DataLoader from 'dataloader';
import { fail } from '@nvcf/errors';
import { DateTimeScalar, inputLimit, type TenantContext } from '@nvcf/subgraph-kit';
import type { IcmsStore } from './store/index.js';
import { type ClusterRecord, type InstanceRecord, type UpdateActionRecord } from './model.js';
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

type Ref = { id: string };
/**
 * loadMany answers a failed batch (the store down) with Error entries; a missing row is null.
 * Read as "no such instance" they would hide an outage: the field fails instead (UNAVAILABLE).
 */
const loaded = <T>(items: (T | Error)[]): T[] => items.map((i) => { if (i instanceof Error) throw i; return i; });
const own = <T extends { ncaId: string }>(ctx: IcmsContext, rec: T | null | undefined) => (rec && rec.ncaId === ctx.tenant ? rec : null);

/** Public view of an instance: state comes from nvca-status, so only REQUESTED hides here. */
const visible = (i: InstanceRecord) => i.state !== 'TERMINATED';
// refused before any resolver runs (input limits); kept for in-process callers
const MAX_IDS = inputLimit('Query.instances(ids:)').maxItems!;

export function resolvers(store: IcmsStore) {
  return {
    DateTime: DateTimeScalar,
    Query: {
      clusters: async (_: unknown, __: unknown, ctx: IcmsContext) => (await store.listClusters()).filter((c) => mayUse(c, ctx.tenant)),
      instance: async (_: unknown, { id }: Ref, ctx: IcmsContext) => own(ctx, await ctx.loaders.instances.load(id)),
      instances: async (_: unknown, { ids }: { ids: string[] }, ctx: IcmsContext) => {
        if (ids.length > MAX_IDS) throw fail('LIMIT_EXCEEDED', `instances takes at most ${MAX_IDS} ids (got ${ids.length}); ask in pages`, { field: 'ids', limit: MAX_IDS });
        return loaded(await ctx.loaders.instances.loadMany(ids)).map((i) => own(ctx, i));
      },
    },
    Instance: {
      __resolveReference: async ({ id }: Ref, ctx: IcmsContext) => own(ctx, await ctx.loaders.instances.load(id)),
      gpuSpecification: (i: InstanceRecord) => ({ id: i.gpuSpecificationId }),
      cluster: (i: InstanceRecord, _: unknown, ctx: IcmsContext) => ctx.loaders.clusters.load(i.clusterId),
    },
    Cluster: {
      __resolveReference: async ({ id }: Ref, ctx: IcmsContext) => {
        const c = await ctx.loaders.clusters.load(id);
        return c && c.authorizedNcaIds.includes(ctx.tenant) ? c : null;
      },
      gpus: (c: ClusterRecord) => c.gpus,
    },
    GpuSpecification: {
      __resolveReference: (ref: Ref) => ref,
      instances: async ({ id }: Ref, _: unknown, ctx: IcmsContext) =>
        (await ctx.loaders.instancesBySpec.load(id)).filter((i) => i.ncaId === ctx.tenant && visible(i)),
      updateActions: async ({ id }: Ref, _: unknown, ctx: IcmsContext) => (await ctx.loaders.actionsBySpec.load(id)).filter((a) => a.ncaId === ctx.tenant),
    },
    UpdateAction: {
      targets: async (a: UpdateActionRecord, _: unknown, ctx: IcmsContext) =>
        loaded(await ctx.loaders.instances.loadMany(a.targets)).filter((i): i is InstanceRecord => !!i),
    },
  };
}


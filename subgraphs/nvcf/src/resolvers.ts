import { JSONScalar, DateTimeScalar, type TenantContext } from '@nvcf/subgraph-kit';
import type { DeploymentRecord, FunctionRecord, Revision, SpecRecord, VersionRecord } from './model.js';
import { rolloutProgress } from './progress.js';
import type { Loaders } from './loaders.js';
import type { Nvcf } from './nvcf.js';
import { createFunction, createFunctionVersion } from './functions.js';
import { deployFunctionVersion } from './deploy.js';
import { rollbackGpuSpecification, updateGpuSpecification } from './updates.js';
import { undeployFunctionVersion } from './undeploy.js';

export interface NvcfContext extends TenantContext {
  loaders: Loaders;
}

type Ref = { id: string };
/** Every read passes through here: another tenant's object is indistinguishable from none. */
const own = <T extends { ncaId: string }>(ctx: NvcfContext, rec: T | null | undefined): T | null => (rec && rec.ncaId === ctx.tenant ? rec : null);

export function resolvers(nvcf: Nvcf) {
  const fresh = (ctx: NvcfContext, specId: string) => { ctx.loaders.specs.clear(specId); ctx.loaders.revisions.clear(specId); ctx.loaders.instanceStates.clear(specId); };
  return {
    JSON: JSONScalar,
    DateTime: DateTimeScalar,
    Query: {
      function: async (_: unknown, { id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.functions.load(id)),
      functions: (_: unknown, __: unknown, ctx: NvcfContext) => nvcf.store.listFunctions(ctx.tenant),
      functionVersion: async (_: unknown, { id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.versions.load(id)),
      gpuSpecification: async (_: unknown, { id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.specs.load(id)),
      operatorTypes: () => nvcf.registry.types.map((t) => ({
        name: t.name, clusterAttribute: t.clusterAttribute, kinds: t.kinds.map((k) => k.kind), apiVersions: [...new Set(t.kinds.map((k) => k.apiVersion))],
      })),
    },
    Mutation: {
      createFunction: (_: unknown, { input }: any, ctx: NvcfContext) => createFunction(nvcf.store, nvcf.registry, ctx.tenant, input),
      createFunctionVersion: (_: unknown, { functionId, input }: any, ctx: NvcfContext) => createFunctionVersion(nvcf.store, nvcf.registry, ctx.tenant, functionId, input),
      deployFunctionVersion: (_: unknown, { versionId, input }: any, ctx: NvcfContext) => deployFunctionVersion(nvcf, ctx.tenant, versionId, input),
      updateGpuSpecification: async (_: unknown, { id, input }: any, ctx: NvcfContext) => {
        const spec = await updateGpuSpecification(nvcf, ctx.tenant, id, input);
        fresh(ctx, id);
        return spec;
      },
      rollbackGpuSpecification: async (_: unknown, { id }: Ref, ctx: NvcfContext) => {
        const spec = await rollbackGpuSpecification(nvcf, ctx.tenant, id);
        fresh(ctx, id);
        return spec;
      },
      undeployFunctionVersion: (_: unknown, { versionId, graceful }: any, ctx: NvcfContext) => undeployFunctionVersion(nvcf, ctx.tenant, versionId, graceful ?? false),
    },
    Function: {
      __resolveReference: async ({ id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.functions.load(id)),
      versions: async (f: FunctionRecord, _: unknown, ctx: NvcfContext) => (await ctx.loaders.versionsByFunction.load(f.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    },
    FunctionVersion: {
      __resolveReference: async ({ id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.versions.load(id)),
      function: (v: VersionRecord, _: unknown, ctx: NvcfContext) => ctx.loaders.functions.load(v.functionId),
      deployment: (v: VersionRecord, _: unknown, ctx: NvcfContext) => (v.deploymentId ? ctx.loaders.deployments.load(v.deploymentId) : null),
    },
    Deployment: {
      __resolveReference: async ({ id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.deployments.load(id)),
      functionVersion: (d: DeploymentRecord, _: unknown, ctx: NvcfContext) => ctx.loaders.versions.load(d.versionId),
      // an Error entry is a failed batch (the store down), not a missing spec: it fails the field
      gpuSpecifications: async (d: DeploymentRecord, _: unknown, ctx: NvcfContext) => (await ctx.loaders.specs.loadMany(d.specIds)).filter((s): s is SpecRecord => { if (s instanceof Error) throw s; return !!s; }),
    },
    GpuSpecification: {
      __resolveReference: async ({ id }: Ref, ctx: NvcfContext) => own(ctx, await ctx.loaders.specs.load(id)),
      configuration: async (s: SpecRecord, _: unknown, ctx: NvcfContext) => (await ctx.loaders.revisions.load(s.id)).latest?.configuration ?? null,
      latestRevision: async (s: SpecRecord, _: unknown, ctx: NvcfContext) => (await ctx.loaders.revisions.load(s.id)).latest,
      lastAppliedRevision: async (s: SpecRecord, _: unknown, ctx: NvcfContext) => (await ctx.loaders.revisions.load(s.id)).lastApplied,
      deployment: (s: SpecRecord, _: unknown, ctx: NvcfContext) => ctx.loaders.deployments.load(s.deploymentId),
    },
    Revision: {
      // both loads are shared with the spec's other fields: latestRevision and lastAppliedRevision
      // with their progress cost one revisions read and one instance-states read together
      progress: async (r: Revision, _: unknown, ctx: NvcfContext) => {
        const [pair, states] = await Promise.all([ctx.loaders.revisions.load(r.specId), ctx.loaders.instanceStates.load(r.specId)]);
        return rolloutProgress(r, states, pair.latest?.id === r.id);
      },
    },
  };
}

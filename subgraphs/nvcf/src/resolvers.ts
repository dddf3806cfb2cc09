import { JSONScalar, DateTimeScalar, required, type TenantContext } from '@nvcf/subgraph-kit';
import type { SpecRecord } from './model.js';
import { rolloutProgress } from './progress.js';
import type { Loaders } from './loaders.js';
import type { Nvcf } from './nvcf.js';
import { createFunction, createFunctionVersion } from './functions.js';
import { deployFunctionVersion } from './deploy.js';
import { rollbackGpuSpecification, updateGpuSpecification } from './updates.js';
import { undeployFunctionVersion } from './undeploy.js';
import type { Resolvers } from './generated/resolvers.js';

export interface NvcfContext extends TenantContext {
  loaders: Loaders;
}

/** Every read passes through here: another tenant's object is indistinguishable from none. */
const own = <T extends { ncaId: string }>(ctx: NvcfContext, rec: T | null | undefined): T | null =>
  rec && rec.ncaId === ctx.tenant ? rec : null;

export function resolvers(nvcf: Nvcf): Resolvers {
  const fresh = (ctx: NvcfContext, specId: string) => {
    ctx.loaders.specs.clear(specId);
    ctx.loaders.revisions.clear(specId);
    ctx.loaders.instanceStates.clear(specId);
  };
  return {
    JSON: JSONScalar,
    DateTime: DateTimeScalar,
    Query: {
      function: async (_, { id }, ctx) => own(ctx, await ctx.loaders.functions.load(id)),
      functions: (_, __, ctx) => nvcf.store.listFunctions(ctx.tenant),
      functionVersion: async (_, { id }, ctx) => own(ctx, await ctx.loaders.versions.load(id)),
      gpuSpecification: async (_, { id }, ctx) => own(ctx, await ctx.loaders.specs.load(id)),
      operatorTypes: () =>
        nvcf.registry.types.map((t) => ({
          name: t.name,
          clusterAttribute: t.clusterAttribute,
          kinds: t.kinds.map((k) => k.kind),
          apiVersions: [...new Set(t.kinds.map((k) => k.apiVersion))],
        })),
    },
    Mutation: {
      createFunction: (_, { input }, ctx) => createFunction(nvcf.store, nvcf.registry, ctx.tenant, input),
      createFunctionVersion: (_, { functionId, input }, ctx) =>
        createFunctionVersion(nvcf.store, nvcf.registry, ctx.tenant, functionId, input),
      deployFunctionVersion: (_, { versionId, input }, ctx) =>
        deployFunctionVersion(nvcf, ctx.tenant, versionId, input),
      updateGpuSpecification: async (_, { id, input }, ctx) => {
        const spec = await updateGpuSpecification(nvcf, ctx.tenant, id, input);
        fresh(ctx, id);
        return spec;
      },
      rollbackGpuSpecification: async (_, { id }, ctx) => {
        const spec = await rollbackGpuSpecification(nvcf, ctx.tenant, id);
        fresh(ctx, id);
        return spec;
      },
      undeployFunctionVersion: (_, { versionId, graceful }, ctx) =>
        undeployFunctionVersion(nvcf, ctx.tenant, versionId, graceful ?? false),
    },
    Function: {
      __resolveReference: async ({ id }, ctx) => own(ctx, await ctx.loaders.functions.load(id)),
      versions: async (f, _, ctx) =>
        (await ctx.loaders.versionsByFunction.load(f.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    },
    FunctionVersion: {
      __resolveReference: async ({ id }, ctx) => own(ctx, await ctx.loaders.versions.load(id)),
      function: (v, _, ctx) =>
        required(`function ${v.functionId} of version ${v.id}`, ctx.loaders.functions.load(v.functionId)),
      deployment: (v, _, ctx) => (v.deploymentId ? ctx.loaders.deployments.load(v.deploymentId) : null),
    },
    Deployment: {
      __resolveReference: async ({ id }, ctx) => own(ctx, await ctx.loaders.deployments.load(id)),
      functionVersion: (d, _, ctx) =>
        required(`version ${d.versionId} of deployment ${d.id}`, ctx.loaders.versions.load(d.versionId)),
      // an Error entry is a failed batch (the store down), not a missing spec: it fails the field
      gpuSpecifications: async (d, _, ctx) =>
        (await ctx.loaders.specs.loadMany(d.specIds)).filter((s): s is SpecRecord => {
          if (s instanceof Error) throw s;
          return !!s;
        }),
    },
    GpuSpecification: {
      __resolveReference: async ({ id }, ctx) => own(ctx, await ctx.loaders.specs.load(id)),
      configuration: async (s, _, ctx) => (await ctx.loaders.revisions.load(s.id)).latest?.configuration ?? null,
      latestRevision: async (s, _, ctx) => (await ctx.loaders.revisions.load(s.id)).latest,
      lastAppliedRevision: async (s, _, ctx) => (await ctx.loaders.revisions.load(s.id)).lastApplied,
      deployment: (s, _, ctx) =>
        required(
          `deployment ${s.deploymentId} of GPU specification ${s.id}`,
          ctx.loaders.deployments.load(s.deploymentId),
        ),
    },
    Revision: {
      // both loads are shared with the spec's other fields: latestRevision and lastAppliedRevision
      // with their progress cost one revisions read and one instance-states read together
      progress: async (r, _, ctx) => {
        const [pair, states] = await Promise.all([
          ctx.loaders.revisions.load(r.specId),
          ctx.loaders.instanceStates.load(r.specId),
        ]);
        return rolloutProgress(r, states, pair.latest?.id === r.id);
      },
    },
  };
}

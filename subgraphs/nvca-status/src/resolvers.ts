import DataLoader from 'dataloader';
import { fail } from '@nvcf/errors';
import { DateTimeScalar, type TenantContext } from '@nvcf/subgraph-kit';
import type { StatusStore, StatusFilter } from './store/index.js';
import type { StatusHub } from './hub.js';
import { hasFilter } from './filter.js';

export const createLoaders = (store: StatusStore) => ({ status: new DataLoader((ids: readonly string[]) => store.get(ids)) });

export interface StatusContext extends TenantContext {
  loaders: ReturnType<typeof createLoaders>;
}

type Args = StatusFilter & { after?: string | null };

export function resolvers(store: StatusStore, hub: StatusHub) {
  return {
    DateTime: DateTimeScalar,
    Instance: {
      __resolveReference: async ({ id }: { id: string }, ctx: StatusContext) => {
        const s = await ctx.loaders.status.load(id);
        if (s && s.ncaId !== ctx.tenant) return null;
        // accepted by ICMS but not yet reported by its agent: it is starting
        return s ? { id, state: s.state, revisionId: s.revisionId, updatedAt: s.updatedAt } : { id, state: 'STARTING', revisionId: null, updatedAt: new Date().toISOString() };
      },
    },
    Subscription: {
      instanceStatusChanged: {
        subscribe: async (_: unknown, args: Args, ctx: StatusContext) => {
          const { after, ...filter } = args;
          if (!hasFilter(filter)) throw fail('BAD_USER_INPUT', 'instanceStatusChanged needs at least one of functionId, versionId, gpuSpecificationId, instanceId', { field: 'functionId' });
          return hub.subscribe(ctx.tenant, filter, after);
        },
      },
    },
  };
}

import DataLoader from 'dataloader';
import { DateTimeScalar, type TenantContext } from '@nvcf/subgraph-kit';
import type { StatusStore } from './store/index.js';
import type { InstanceStatusEvent, Resolvers } from './generated/resolvers.js';
import { toInstancePayload, toStatusPayload, type StatusStream, type Feed } from '@nvcf/status-stream';

export const createLoaders = (store: StatusStore) => ({
  status: new DataLoader((ids: readonly string[]) => store.get(ids)),
});

export interface StatusContext extends TenantContext {
  loaders: ReturnType<typeof createLoaders>;
}

/** Maps feed events to subscription payloads; return() releases the feed at once. */
function payloads(feed: Feed): AsyncIterableIterator<{ instanceStatusChanged: InstanceStatusEvent }> {
  const it: AsyncIterableIterator<{ instanceStatusChanged: InstanceStatusEvent }> = {
    next: async () => {
      const r = await feed.next();
      return r.done
        ? r
        : { done: false, value: { instanceStatusChanged: toStatusPayload(r.value, toInstancePayload(r.value.event)) } };
    },
    return: async () => {
      await feed.return!();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

export function resolvers(store: StatusStore, stream: StatusStream): Resolvers {
  return {
    DateTime: DateTimeScalar,
    Instance: {
      // an id no agent has reported (or another tenant's) is no instance here: null, never an invented state
      __resolveReference: async ({ id }, ctx) => {
        const s = await ctx.loaders.status.load(id);
        if (!s || s.ncaId !== ctx.tenant) return null;
        return {
          id,
          state: s.state,
          revisionId: s.revisionId,
          targetRevisionId: s.targetRevisionId ?? null,
          updatedAt: s.updatedAt,
        };
      },
    },
    Subscription: {
      instanceStatusChanged: {
        subscribe: async (_, args, ctx) => {
          const { after, snapshot, ...filter } = args;
          return payloads(await stream.open(ctx.tenant, filter, { after, snapshot }));
        },
      },
    },
  };
}

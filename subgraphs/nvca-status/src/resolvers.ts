import DataLoader from 'dataloader';
import { DateTimeScalar, type TenantContext } from '@nvcf/subgraph-kit';
import type { StatusStore, StatusFilter } from './store/index.js';
import type { StatusStream, Feed } from '@nvcf/status-stream';
import { toPayload } from './payload.js';

export const createLoaders = (store: StatusStore) => ({ status: new DataLoader((ids: readonly string[]) => store.get(ids)) });

export interface StatusContext extends TenantContext {
  loaders: ReturnType<typeof createLoaders>;
}

type Args = StatusFilter & { after?: string | null; snapshot?: boolean | null };

/** Maps feed events to subscription payloads; return() releases the feed at once. */
function payloads(feed: Feed): AsyncIterableIterator<unknown> {
  const it: AsyncIterableIterator<unknown> = {
    next: async () => { const r = await feed.next(); return r.done ? r : { done: false, value: { instanceStatusChanged: toPayload(r.value) } }; },
    return: async () => { await feed.return!(); return { done: true, value: undefined }; },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

export function resolvers(store: StatusStore, stream: StatusStream) {
  return {
    DateTime: DateTimeScalar,
    Instance: {
      __resolveReference: async ({ id }: { id: string }, ctx: StatusContext) => {
        const s = await ctx.loaders.status.load(id);
        if (s && s.ncaId !== ctx.tenant) return null;
        // accepted by ICMS but not yet reported by its agent: it is starting
        return s
          ? { id, state: s.state, revisionId: s.revisionId, targetRevisionId: s.targetRevisionId ?? null, updatedAt: s.updatedAt }
          : { id, state: 'STARTING', revisionId: null, targetRevisionId: null, updatedAt: new Date().toISOString() };
      },
    },
    Subscription: {
      instanceStatusChanged: {
        subscribe: async (_: unknown, args: Args, ctx: StatusContext) => {
          const { after, snapshot, ...filter } = args;
          return payloads(await stream.open(ctx.tenant, filter, { after, snapshot }));
        },
      },
    },
  };
}

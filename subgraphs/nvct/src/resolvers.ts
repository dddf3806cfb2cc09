import DataLoader from 'dataloader';
import type { OperatorRegistry } from '@nvcf/operators';
import { DateTimeScalar, JSONScalar, loadByIds, type TenantContext } from '@nvcf/subgraph-kit';
import type { TaskStore } from './store/index.js';
import type { Resolvers } from './generated/resolvers.js';
import type { TaskEventRecord, TaskRecord } from './model.js';
import { cancelTask, createTask, listTasks } from './tasks.js';
import type { TaskDeps } from './lifecycle.js';

export const createLoaders = (store: TaskStore) => ({
  task: new DataLoader((ids: readonly string[]) => store.get(ids)),
});

export interface NvctContext extends TenantContext {
  loaders: ReturnType<typeof createLoaders>;
}

/** A transition's position: the task and its transition counter. */
export const eventCursor = (taskId: string, e: Pick<TaskEventRecord, 'seq'>) =>
  Buffer.from(`${taskId}:${e.seq}`).toString('base64url');

const own = async (ctx: NvctContext, id: string): Promise<TaskRecord | null> => {
  const t = await ctx.loaders.task.load(id);
  // another tenant's task is no task here
  return t && t.ncaId === ctx.tenant ? t : null;
};

/** Tasks by id in the order asked, another tenant's (or none) as null. */
const ownMany = async (ctx: NvctContext, ids: readonly string[]): Promise<(TaskRecord | null)[]> =>
  (await loadByIds('tasksByIds', ctx.loaders.task, ids)).map((t) => (t && t.ncaId === ctx.tenant ? t : null));

export function resolvers(deps: TaskDeps, registry: OperatorRegistry): Resolvers {
  return {
    DateTime: DateTimeScalar,
    JSON: JSONScalar,
    Query: {
      task: (_, { id }, ctx) => own(ctx, id),
      tasks: (_, args, ctx) => listTasks(deps.store, ctx.tenant, args),
      tasksByIds: (_, { ids }, ctx) => ownMany(ctx, ids),
    },
    Mutation: {
      createTask: (_, { input }, ctx) => createTask(deps, registry, ctx.tenant, input),
      cancelTask: (_, { id }, ctx) => cancelTask(deps, ctx.tenant, id),
    },
    Task: {
      __resolveReference: ({ id }, ctx) => own(ctx, id),
      events: (t) => t.events.map((event) => ({ event, task: t })),
    },
    TaskStatusEvent: {
      cursor: ({ event, task }) => eventCursor(task.id, event),
      at: ({ event }) => event.at,
      status: ({ event }) => event.status,
      message: ({ event }) => event.message,
      task: ({ task }) => task,
    },
  };
}

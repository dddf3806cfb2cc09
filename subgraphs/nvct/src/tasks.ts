import { randomUUID } from 'node:crypto';
import { fail } from '@nvcf/errors';
import { checkWorkloadInput, type OperatorRegistry } from '@nvcf/operators';
import { checkHelmValues, checkName, inputLimit } from '@nvcf/subgraph-kit';
import { DURATIONS, checkDuration } from './duration.js';
import { isTerminal, type TaskRecord, type TaskStatus } from './model.js';
import { deliver, ownTask, transition, type TaskDeps } from './lifecycle.js';
import type { TaskStore } from './store/index.js';
import type { CreateTaskInput } from './generated/resolvers.js';

// the gateway and the subgraph refuse an oversized configuration before any resolver runs; kept for in-process callers
const CONFIGURATION = inputLimit('CreateTaskInput.configuration');

/** Validates the whole input before anything is stored, then queues the task. */
export async function createTask(
  deps: TaskDeps,
  registry: OperatorRegistry,
  tenant: string,
  input: CreateTaskInput,
): Promise<TaskRecord> {
  checkName('CreateTaskInput.name', input.name);
  const workload = checkWorkloadInput(input, registry);
  const g = input.gpuSpecification;
  for (const f of ['gpu', 'instanceType'] as const)
    if (!g[f].trim())
      throw fail('BAD_USER_INPUT', `gpuSpecification.${f} must not be empty`, { field: `gpuSpecification.${f}` });
  const durations = {
    maxRuntimeDuration: checkDuration('maxRuntimeDuration', input.maxRuntimeDuration, DURATIONS.maxRuntimeDuration),
    maxQueuedDuration: checkDuration('maxQueuedDuration', input.maxQueuedDuration, DURATIONS.maxQueuedDuration),
    terminationGracePeriodDuration: checkDuration(
      'terminationGracePeriodDuration',
      input.terminationGracePeriodDuration,
      DURATIONS.terminationGracePeriodDuration,
    ),
  };
  const configuration =
    input.configuration == null ? null : checkHelmValues('configuration', input.configuration, CONFIGURATION.maxBytes!);
  const now = deps.clock().toISOString();
  const task: TaskRecord = {
    id: randomUUID(),
    ncaId: tenant,
    name: input.name,
    ...workload,
    status: 'QUEUED',
    configuration,
    gpu: g.gpu,
    instanceType: g.instanceType,
    clusters: g.clusters ?? [],
    regions: g.regions ?? [],
    ...durations,
    clusterId: null,
    createdAt: now,
    runningAt: null,
    endedAt: null,
    message: null,
    seq: 1,
    announcedSeq: 0,
    events: [{ seq: 1, at: now, status: 'QUEUED', message: null }],
  };
  await deps.store.create(task);
  deps.metrics?.transitioned('QUEUED');
  await deliver(deps, task);
  return task;
}

export async function cancelTask(deps: TaskDeps, tenant: string, id: string): Promise<TaskRecord> {
  const ended = (t: TaskRecord) =>
    fail('TASK_ENDED', `task ${id} already ended ${t.status} at ${t.endedAt}; submit a new task instead`, {
      field: 'id',
      status: t.status,
    });
  const task = await ownTask(deps.store, tenant, id);
  if (isTerminal(task.status)) throw ended(task);
  const canceled = await transition(deps, id, () => ({ status: 'CANCELED', message: 'canceled by the owner' }));
  if (canceled) return canceled;
  // it ended between the read and the compare-and-set
  throw ended(await ownTask(deps.store, tenant, id));
}

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

/** A position in a tenant's newest-first list: opaque to clients. */
export interface PageKey {
  createdAt: string;
  id: string;
}

export const encodePageCursor = (t: PageKey) => Buffer.from(JSON.stringify([t.createdAt, t.id])).toString('base64url');

export function decodePageCursor(after: string): PageKey {
  try {
    const v: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { createdAt: v[0], id: v[1] };
  } catch {
    // refused below with the same message as any other malformed cursor
  }
  throw fail('CURSOR_INVALID', 'after is not a cursor of this list; pass pageInfo.endCursor of the page before', {
    field: 'after',
  });
}

export async function listTasks(
  store: TaskStore,
  tenant: string,
  args: { status?: TaskStatus | null; first?: number | null; after?: string | null },
) {
  const first = args.first ?? DEFAULT_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE)
    throw fail('BAD_USER_INPUT', `first must be between 1 and ${MAX_PAGE} (got ${first})`, { field: 'first' });
  const after = args.after ? decodePageCursor(args.after) : null;
  // one more than the page: whether there is a next page, without a second query
  const found = await store.list(tenant, { status: args.status ?? null, limit: first + 1, after });
  const page = found.slice(0, first);
  const edges = page.map((t) => ({ cursor: encodePageCursor(t), node: t }));
  return {
    edges,
    pageInfo: { hasNextPage: found.length > first, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

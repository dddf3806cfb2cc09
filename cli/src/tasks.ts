import {
  CancelTaskDocument,
  CreateTaskDocument,
  TaskDocument,
  TaskProgressDocument,
  TasksDocument,
  isTransient,
  taskEnded,
  TASK_STATUSES,
  TASK_TERMINAL_STATUSES,
  type NvcfError,
  type CreateTaskInput,
  type TaskEventFieldsFragment,
  type TaskDetailFieldsFragment,
  type TaskStatus,
} from '@nvcf/client';
import { setTimeout as delay } from 'node:timers/promises';
import { found, type Ctx } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { workloadOf, type WorkloadFlags } from './functions.js';
import { details, renderStreamItem, streamFormat, table, when, type Colors } from './output.js';
import type { OutputFormat } from './formats.js';
import { composeConfiguration, readConfigurationInputs } from './values.js';

export interface ReadOptions {
  output: OutputFormat;
}

export interface ListOptions extends ReadOptions {
  status?: string;
  limit?: number;
  after?: string;
}

export interface TaskWatchOptions extends ReadOptions {
  /** milliseconds before reading the task again (or reconnecting) after an outage */
  interval: number;
}

export interface CreateTaskOptions extends WorkloadFlags, TaskWatchOptions {
  file: string[];
  operatorType: string[];
  gpu: string;
  instanceType: string;
  cluster: string[];
  region: string[];
  values: string[];
  set: string[];
  setString: string[];
  maxRuntime?: string;
  maxQueued?: string;
  terminationGrace?: string;
  watch?: boolean;
}

function statusWord(status: TaskStatus, colors: Colors): string {
  if (status === 'COMPLETED') return colors.green(status);
  return TASK_TERMINAL_STATUSES.has(status) ? colors.red(status) : colors.yellow(status);
}

function taskTable(ctx: Ctx, t: TaskDetailFieldsFragment): string {
  const head = details(
    [
      ['ID', t.id],
      ['Name', t.name],
      ['Status', statusWord(t.status, ctx.colors)],
      ['Message', t.message],
      ['Workload', t.workloadType],
      ['GPU', `${t.gpu} ${t.instanceType}`],
      ['Created', when(t.createdAt)],
      ['Ended', when(t.endedAt)],
      ['Max queued', t.maxQueuedDuration],
      ['Max runtime', t.maxRuntimeDuration],
      ['Termination grace', t.terminationGracePeriodDuration],
    ],
    ctx.colors,
  );
  if (!t.events.length) return head;
  return `${head}\n${table(
    ['AT', 'STATUS', 'MESSAGE'],
    t.events.map((e) => [when(e.at), statusWord(e.status, ctx.colors), e.message ?? '']),
    ctx.colors,
  )}`;
}

/** `2026-11-30T19:00:01Z task-123 CANCELED: canceled by the caller` */
const eventLine = (taskId: string, e: TaskEventFieldsFragment): string =>
  `${when(e.at)} ${taskId} ${e.status}${e.message ? `: ${e.message}` : ''}\n`;

export async function list(ctx: Ctx, opts: ListOptions): Promise<number> {
  let status: TaskStatus | undefined;
  if (opts.status !== undefined) {
    const s = opts.status.toUpperCase();
    if (!(TASK_STATUSES as readonly string[]).includes(s))
      throw new UsageError(`--status ${opts.status}: one of ${TASK_STATUSES.join(', ')}`);
    status = s as TaskStatus;
  }
  const { tasks } = await (
    await ctx.client()
  ).query(TasksDocument, {
    ...(status ? { status } : {}),
    ...(opts.limit !== undefined ? { first: opts.limit } : {}),
    ...(opts.after !== undefined ? { after: opts.after } : {}),
  });
  const nodes = tasks.edges.map((e) => e.node);
  ctx.print(opts.output, nodes, () => {
    const rows = table(
      ['ID', 'NAME', 'STATUS', 'WORKLOAD', 'GPU', 'CREATED', 'ENDED'],
      nodes.map((t) => [
        t.id,
        t.name,
        statusWord(t.status, ctx.colors),
        t.workloadType,
        t.gpu,
        when(t.createdAt),
        when(t.endedAt),
      ]),
      ctx.colors,
    );
    // the table has no room for the cursor: say how to read on
    return tasks.pageInfo.hasNextPage && tasks.pageInfo.endCursor
      ? `${rows}(more: nvcf tasks list --after ${tasks.pageInfo.endCursor})\n`
      : rows;
  });
  return EXIT.ok;
}

export async function get(ctx: Ctx, id: string, opts: ReadOptions): Promise<number> {
  const t = found((await (await ctx.client()).query(TaskDocument, { id })).task, 'task', id);
  ctx.print(opts.output, t, () => taskTable(ctx, t));
  return EXIT.ok;
}

export async function cancel(ctx: Ctx, id: string, opts: ReadOptions): Promise<number> {
  const t = (await (await ctx.client()).mutate(CancelTaskDocument, { id })).cancelTask;
  ctx.print(opts.output, t, () => `task ${t.id} ${t.status}\n`);
  return EXIT.ok;
}

/** A Helm, container or operator workload (`-f` manifests), exactly one. */
async function taskWorkload(
  ctx: Ctx,
  o: CreateTaskOptions,
): Promise<Pick<CreateTaskInput, 'helm' | 'container' | 'operator'>> {
  if (!o.file.length) {
    if (o.operatorType.length) throw new UsageError('--operator-type needs the manifests: -f FILE');
    return workloadOf(o, 'operator workloads: -f manifests.yaml (and --operator-type, else the registry says)');
  }
  if (o.helmChart || o.containerImage || o.helmService || o.arg.length || o.env.length)
    throw new UsageError('-f (operator manifests) and --helm-*/--container-image/--arg/--env are exclusive');
  const { readManifests, operatorTypesFor } = await import('./operator.js');
  const manifests = await readManifests(ctx.io.cwd, o.file);
  return {
    operator: { operatorTypes: await operatorTypesFor(await ctx.client(), manifests, o.operatorType), manifests },
  };
}

/** `tasks create NAME …`: queues a task; --watch follows it to its end as `tasks watch` does. */
export async function create(ctx: Ctx, name: string, opts: CreateTaskOptions): Promise<number> {
  const configuration =
    opts.values.length || opts.set.length || opts.setString.length
      ? composeConfiguration({}, await readConfigurationInputs(ctx.io.cwd, opts.values, opts.set, opts.setString))
      : undefined;
  const format = opts.watch && opts.output !== 'table' ? streamFormat(opts.output) : undefined;
  const input: CreateTaskInput = {
    name,
    ...(await taskWorkload(ctx, opts)),
    gpuSpecification: {
      gpu: opts.gpu,
      instanceType: opts.instanceType,
      ...(opts.cluster.length ? { clusters: opts.cluster } : {}),
      ...(opts.region.length ? { regions: opts.region } : {}),
    },
    ...(configuration ? { configuration } : {}),
    ...(opts.maxRuntime !== undefined ? { maxRuntimeDuration: opts.maxRuntime } : {}),
    ...(opts.maxQueued !== undefined ? { maxQueuedDuration: opts.maxQueued } : {}),
    ...(opts.terminationGrace !== undefined ? { terminationGracePeriodDuration: opts.terminationGrace } : {}),
  };
  const t = (await (await ctx.client()).mutate(CreateTaskDocument, { input })).createTask;
  if (!opts.watch) {
    ctx.print(opts.output, t, () => taskTable(ctx, t));
    return EXIT.ok;
  }
  // json/yaml with --watch: one stream of items, the task its first
  if (format) ctx.out(renderStreamItem(format, { type: 'created', task: t }));
  else ctx.out(`task ${t.id} created\n`);
  return watch(ctx, t.id, opts);
}

/**
 * `tasks watch ID`: prints each transition of the task once, until it ends: exit 0 when it
 * COMPLETED, 1 for any other terminal state (its message on stderr). The transitions are read
 * from the task (its history, with its own cursors), once at the start and again each time
 * taskStatusChanged announces one not printed yet: the subscription says when, the history what,
 * so a transition the subscription conflated, or one before it was open, is still printed once.
 */
export async function watch(ctx: Ctx, id: string, opts: TaskWatchOptions): Promise<number> {
  const seen = new Set<string>();
  const printed = new Set<TaskStatus>();
  const format = opts.output === 'table' ? undefined : streamFormat(opts.output);
  const client = await ctx.client();
  const interrupted = () => {
    ctx.err(`stopped watching; resume with: nvcf tasks watch ${id}\n`);
    return EXIT.interrupted;
  };
  /** prints what the task has that was not printed; its exit code once it ended, else null */
  const read = async (): Promise<number | null> => {
    const t = found((await client.query(TaskProgressDocument, { id })).task, 'task', id);
    for (const e of t.events) {
      if (seen.has(e.cursor)) continue;
      seen.add(e.cursor);
      printed.add(e.status);
      ctx.out(format ? renderStreamItem(format, { type: 'event', taskId: t.id, ...e }) : eventLine(t.id, e));
    }
    if (!taskEnded(t.status)) return null;
    if (t.status === 'COMPLETED') return EXIT.ok;
    ctx.err(`task ${t.id} ended ${t.status}${t.message ? `: ${t.message}` : ''}\n`);
    return EXIT.taskNotCompleted;
  };
  /** a read after the first: an outage is waited out (the task goes on); null also when interrupted */
  const readAgain = async (): Promise<number | null> => {
    for (;;) {
      try {
        return await read();
      } catch (err) {
        if (!isTransient(err)) throw err;
        const { code, message } = err as NvcfError;
        ctx.err(`retrying in ${opts.interval} ms: ${code}: ${message}\n`);
        try {
          await delay(opts.interval, undefined, { signal: ctx.signal });
        } catch {
          return null;
        }
      }
    }
  };
  // the first read proves the gateway and the id
  const first = await read();
  if (first !== null) return first;
  while (!ctx.signal.aborted) {
    // the snapshot is the task's status now: a transition between the first read and the subscription is not missed
    const items = client.watchTasks(
      { taskId: id },
      { snapshot: true, signal: ctx.signal, initialDelayMs: opts.interval },
    );
    for await (const item of items) {
      if (item.type === 'reconnecting')
        ctx.err(`retrying in ${item.delayMs} ms: ${item.error.code}: ${item.error.message}\n`);
      if (item.type !== 'event' || printed.has(item.event.status)) continue;
      const code = await readAgain();
      if (code !== null) return code;
    }
  }
  return interrupted();
}

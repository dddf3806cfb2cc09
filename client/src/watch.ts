import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  InstanceStatusChangedDocument,
  TaskStatusChangedDocument,
  type InstanceStatusChangedSubscription,
  type InstanceStatusChangedSubscriptionVariables,
  type TaskStatusChangedSubscription,
  type TaskStatusChangedSubscriptionVariables,
} from './generated/graphql.js';
import { NvcfError, isTransient } from './errors.js';
import { requestBody, type DocumentMode } from './request.js';
import type { Transport } from './transport.js';

/** One status event of `instanceStatusChanged`, as the client's document selects it. */
export type StatusEvent = InstanceStatusChangedSubscription['instanceStatusChanged'];

/** One transition of `taskStatusChanged`, as the client's document selects it. */
export type TaskEvent = TaskStatusChangedSubscription['taskStatusChanged'];

/** Which tasks to watch: one (`taskId`), or every task of the caller's tenant (none). */
export type TaskWatchFilter = Pick<TaskStatusChangedSubscriptionVariables, 'taskId'>;

/** Which instances to watch: at least one filter (the API requires it). */
export type WatchFilter = Pick<
  InstanceStatusChangedSubscriptionVariables,
  'functionId' | 'versionId' | 'gpuSpecificationId' | 'instanceId'
>;

export interface WatchOptions {
  /** resume after this cursor (one received earlier): exactly the events after it, then live */
  after?: string | null;
  /** first the current state of every matching instance (kind SNAPSHOT), then transitions */
  snapshot?: boolean;
  /** stops the watch: the iterator ends */
  signal?: AbortSignal;
  /**
   * CURSOR_EXPIRED (the cursor is older than what the stream retains): `throw` (the default)
   * ends the watch with that NvcfError; `snapshot` yields an `expired` item and starts again
   * from the current state (a SNAPSHOT of every instance), so nothing is silently skipped.
   */
  onExpired?: 'throw' | 'snapshot';
  /** reconnect attempts in a row before giving up with the last error (default: forever) */
  maxAttempts?: number;
  /** first reconnect delay, doubled per attempt up to `maxDelayMs` (defaults 250 ms, 10 s) */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** What every watch yields: its events, and what happened to the connection, explicitly. */
export type ResumeItem<E> =
  | { type: 'connected'; after: string | null; attempt: number }
  | { type: 'event'; event: E }
  | { type: 'reconnecting'; attempt: number; delayMs: number; error: NvcfError }
  /** the cursor expired (onExpired: 'snapshot'): a snapshot of the current state follows */
  | { type: 'expired'; error: NvcfError };

/** What a watch of instances yields: a lag marker besides the rest. */
export type WatchItem =
  | ResumeItem<StatusEvent>
  /** the subscriber fell behind: `skippedEvents` transitions of this instance were conflated away
   * (its latest state follows); `resumeAfter` replays them with a second watch */
  | { type: 'lag'; instanceId: string; skippedEvents: number; resumeAfter: string };

/** What a watch of tasks yields: a lag marker besides the rest. */
export type TaskWatchItem =
  | ResumeItem<TaskEvent>
  /** the subscriber fell behind: `skippedEvents` transitions of this task were conflated away
   * (its latest one follows); `resumeAfter` replays them with a second watch */
  | { type: 'lag'; taskId: string; skippedEvents: number; resumeAfter: string };

/** Remembers the last cursors seen, to drop an event delivered twice across a reconnect. */
class RecentCursors {
  private readonly set = new Set<string>();
  constructor(private readonly size: number) {}
  add(cursor: string): boolean {
    if (this.set.has(cursor)) return false;
    this.set.add(cursor);
    if (this.set.size > this.size) this.set.delete(this.set.values().next().value as string);
    return true;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve();
    }, ms);
    const done = () => {
      clearTimeout(t);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
  });

/** One resumable subscription field, as the shared watch loop reads it. */
interface Resumable<E, V, L> {
  document: TypedDocumentNode<unknown, V>;
  variables(after: string | null, snapshot: boolean): V;
  /** the event in a result's data */
  event(data: unknown): E | null | undefined;
  cursor(e: E): string;
  /** an event that reports a current state (SNAPSHOT), not a transition: not a resume point */
  isSnapshot(e: E): boolean;
  /** the item that announces an event's lag marker, yielded before it */
  lag(e: E): L | null;
}

/**
 * The events of one subscription field, resumed from the last cursor after any broken connection
 * (a restarted or drained gateway, a network blip): no gap and no duplicate, because the gateway
 * serves exactly the events after the cursor. Refusals (UNAUTHENTICATED, a bad filter…) end it
 * with their NvcfError. watchStatus and watchTasks are this loop over their fields.
 */
async function* resumable<E, V, L>(
  transport: Transport,
  documents: { mode: DocumentMode },
  field: Resumable<E, V, L>,
  opts: WatchOptions,
): AsyncGenerator<ResumeItem<E> | L> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) stop.abort();
  const seen = new RecentCursors(4096);
  let after = opts.after ?? null;
  // until the first transition a break repeats the snapshot (SNAPSHOT items are states: a repeat is harmless)
  let inSnapshot = opts.snapshot ?? false;
  let attempt = 0;
  const initial = opts.initialDelayMs ?? 250;
  const max = opts.maxDelayMs ?? 10_000;
  try {
    while (!stop.signal.aborted) {
      try {
        for await (const frame of transport(
          await requestBody(field.document, field.variables(after, inSnapshot), documents.mode),
          stop.signal,
        )) {
          if (frame.kind === 'open') {
            yield { type: 'connected', after, attempt };
            attempt = 0;
            continue;
          }
          if (frame.errors?.length) throw NvcfError.fromErrors(frame.errors);
          const event = field.event(frame.data);
          if (!event) continue;
          const snapshot = field.isSnapshot(event);
          if (!snapshot && inSnapshot) inSnapshot = false;
          if (!inSnapshot) after = field.cursor(event);
          if (!snapshot && !seen.add(field.cursor(event))) continue;
          const lag = field.lag(event);
          if (lag) yield lag;
          yield { type: 'event', event };
        }
        return; // `complete`: the server ended the stream
      } catch (err) {
        if (stop.signal.aborted) return;
        const error = err instanceof NvcfError ? err : NvcfError.unavailable('the status stream', err);
        if (error.code === 'PERSISTED_QUERY_NOT_FOUND' && documents.mode === 'id') {
          documents.mode = 'text';
          continue;
        }
        if (error.code === 'CURSOR_EXPIRED' && opts.onExpired === 'snapshot') {
          yield { type: 'expired', error };
          after = null;
          inSnapshot = true;
          continue;
        }
        if (!isTransient(error)) throw error;
        attempt++;
        if (opts.maxAttempts !== undefined && attempt > opts.maxAttempts) throw error;
        const backoff = Math.min(max, initial * 2 ** (attempt - 1));
        const delayMs =
          error.retryAfterSeconds !== undefined
            ? error.retryAfterSeconds * 1000
            : Math.round(backoff / 2 + (Math.random() * backoff) / 2);
        yield { type: 'reconnecting', attempt, delayMs, error };
        await sleep(delayMs, stop.signal);
      }
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

/** The status stream of the matching instances, resumed by itself (see resumable). */
export async function* watchStatus(
  transport: Transport,
  documents: { mode: DocumentMode },
  filter: WatchFilter,
  opts: WatchOptions = {},
): AsyncGenerator<WatchItem> {
  if (!Object.values(filter).some((v) => v != null))
    throw new NvcfError(
      'BAD_USER_INPUT',
      'watch needs at least one of functionId, versionId, gpuSpecificationId, instanceId',
    );
  yield* resumable(
    transport,
    documents,
    {
      document: InstanceStatusChangedDocument,
      variables: (after, snapshot): InstanceStatusChangedSubscriptionVariables => ({
        ...filter,
        ...(after ? { after } : {}),
        snapshot,
      }),
      event: (data) => (data as InstanceStatusChangedSubscription | null | undefined)?.instanceStatusChanged,
      cursor: (e) => e.cursor,
      isSnapshot: (e) => e.kind === 'SNAPSHOT',
      lag: (e): WatchItem | null =>
        e.lag && {
          type: 'lag',
          instanceId: e.instance.id,
          skippedEvents: e.lag.skippedEvents,
          resumeAfter: e.lag.resumeAfter,
        },
    },
    opts,
  );
}

/**
 * The transitions of one task, or of every task of the caller's tenant, resumed by itself (see
 * resumable). `snapshot` first gives each task's newest transition (its current status).
 */
export function watchTasks(
  transport: Transport,
  documents: { mode: DocumentMode },
  filter: TaskWatchFilter,
  opts: WatchOptions = {},
): AsyncGenerator<TaskWatchItem> {
  return resumable(
    transport,
    documents,
    {
      document: TaskStatusChangedDocument,
      variables: (after, snapshot): TaskStatusChangedSubscriptionVariables => ({
        ...filter,
        ...(after ? { after } : {}),
        snapshot,
      }),
      event: (data) => (data as TaskStatusChangedSubscription | null | undefined)?.taskStatusChanged,
      cursor: (e) => e.cursor,
      // a task's snapshot is its newest transition, with that transition's own cursor: resuming after it misses nothing
      isSnapshot: () => false,
      lag: (e): TaskWatchItem | null =>
        e.lag && {
          type: 'lag',
          taskId: e.task.id,
          skippedEvents: e.lag.skippedEvents,
          resumeAfter: e.lag.resumeAfter,
        },
    },
    opts,
  );
}

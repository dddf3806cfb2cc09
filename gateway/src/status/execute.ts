import {
  buildSchema,
  execute,
  GraphQLError,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { readPublicSchema } from '@nvcf/schema';
import { maskError } from '@nvcf/errors';
import { toInstancePayload, toStatusPayload } from '@nvcf/status-stream';
import type { StatusStream, FeedEvent, Feed, FeedSink, StatusFilter } from '@nvcf/status-stream';
import { fieldsOf, type StatusOperation } from './operation.js';
import type { InstanceFetcher } from './instances.js';
import type { StatusSchema } from './schema.js';

let schema: GraphQLSchema | undefined;
/** The public schema, to execute status subscriptions locally. */
export const publicSchema = () => (schema ??= buildSchema(readPublicSchema()));

// remote instance subtrees are keyed by response name (aliases survive), local payloads by field name
const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  if (source === null || typeof source !== 'object') return undefined;
  const obj = source as Record<string, unknown>;
  const v = obj[info.path.key as string];
  return v !== undefined ? v : obj[info.fieldName];
};

/** instanceStatusChanged's arguments, coerced (schema/nvca-status.graphql). */
type StatusArgs = StatusFilter & { after?: string | null; snapshot?: boolean | null };

type Maybe<T> = T | Promise<T>;
const isPromise = <T>(v: Maybe<T>): v is Promise<T> => typeof (v as { then?: unknown }).then === 'function';

/** Where a subscription in push mode sends its results. */
export interface ResultSink {
  /** one event's result; false: take no more until the subscription is resumed */
  push(result: ExecutionResult, cursor: string): boolean;
  /** the subscription ended: done, or with the error its client should see */
  end(err?: Error): void;
}

export interface StatusRun {
  /** the event stream, each result with the cursor the SSE `id` carries */
  events: AsyncIterableIterator<{ result: ExecutionResult; cursor: string }>;
  /**
   * Push mode, the alternative to pulling `events`: each result reaches `out` in the turn its
   * event arrives (no promise per subscriber and event). Returns `resume`, to call once after
   * a push returned false; the events in between queue and conflate in the feed meanwhile.
   */
  push(out: ResultSink): () => void;
}

/**
 * Results shared by subscribers that asked the same thing: with many clients on one
 * function, each event is executed once per distinct operation, not once per subscriber.
 */
export class ResultCache {
  private readonly bySeq = new Map<number, Map<number, Maybe<ExecutionResult>>>();
  private readonly operations = new Map<string, number>();
  private nextId = 0;
  constructor(private readonly max = 2000) {}
  /**
   * A short id per distinct operation, taken once per subscription: the per-event key then
   * hashes a few characters, not the whole query text, for every subscriber.
   */
  operationId(key: string): number {
    let id = this.operations.get(key);
    if (id === undefined) {
      // ids are only compared, never reused while the map lives; a full map starts over
      if (this.operations.size >= 100_000) this.operations.clear();
      this.operations.set(key, (id = this.nextId++));
    }
    return id;
  }
  /**
   * The shared result of one event (stream sequence) for one operation: numbers as keys, so no
   * key string is built per delivery. Bounded by events, oldest first. A result computed
   * synchronously is shared as a value, and a promise is replaced by its value once settled,
   * so that every later subscriber of the event gets it in the same turn.
   */
  get(seq: number, key: number, make: () => Maybe<ExecutionResult>): Maybe<ExecutionResult> {
    let perEvent = this.bySeq.get(seq);
    if (!perEvent) {
      if (this.bySeq.size >= this.max) this.bySeq.delete(this.bySeq.keys().next().value!);
      this.bySeq.set(seq, (perEvent = new Map<number, Maybe<ExecutionResult>>()));
    }
    let hit = perEvent.get(key);
    if (hit === undefined) {
      const made = make();
      perEvent.set(key, (hit = made));
      if (isPromise(made)) {
        const shared = perEvent;
        made.then(
          (v) => shared.get(key) === made && shared.set(key, v),
          () => {},
        );
      }
    }
    return hit;
  }
}

export interface RunOptions {
  op: StatusOperation;
  /** coerced by the guard, which also validated the document: neither is done again here */
  variables: Record<string, unknown>;
  tenant: string;
  stream: StatusStream;
  instances: InstanceFetcher;
  /** SSE Last-Event-ID: wins over the `after` argument */
  lastEventId?: string | null;
  cache?: ResultCache;
  /** the request's text, to recognise identical subscriptions */
  query?: string;
  /**
   * The schema to execute against, which a supergraph reload replaces, and the subscriptions it
   * checks then; without it the committed public schema, never replaced.
   */
  schema?: StatusSchema;
  /** the schema the guard admitted the operation on (default: the current one) */
  admittedOn?: GraphQLSchema;
  /** the variables as sent, checked again on a schema change (default: `variables`) */
  sent?: Record<string, unknown>;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error('status result failed', { cause: err }));
const masked = (r: ExecutionResult): ExecutionResult =>
  r.errors ? { ...r, errors: r.errors.map((x) => maskError(x)) } : r;

/** Opens the feed for an admitted operation, or returns the errors a client should see. */
export async function runStatusSubscription(o: RunOptions): Promise<StatusRun | ExecutionResult> {
  // read before the feed opens: a reload while it opens is caught by `track` below
  const admittedOn = o.admittedOn ?? o.schema?.schema ?? publicSchema();
  const root = fieldsOf(o.op.operation.selectionSet, o.op.fragments)[0];
  const args = getArgumentValues(
    admittedOn.getSubscriptionType()!.getFields().instanceStatusChanged,
    root,
    o.variables,
  ) as StatusArgs;
  let feed: Feed;
  try {
    feed = await o.stream.open(o.tenant, args, { after: o.lastEventId || args.after, snapshot: args.snapshot });
  } catch (err) {
    return {
      errors: [
        maskError(err instanceof GraphQLError ? err : new GraphQLError('failed', { originalError: err as Error })),
      ],
    };
  }
  // set once a reload made the selection invalid: from then on nothing but that one error
  let changed: GraphQLError | null = null;
  let reported = false;
  let endPush: ((err: Error) => void) | null = null;
  let untrack = () => {};
  if (o.schema) {
    const tracked = o.schema.track(
      {
        document: o.op.document,
        operation: o.op.operation,
        variables: o.sent ?? o.variables,
        end: (err) => {
          changed = err;
          if (endPush) {
            endPush(err);
            void feed.return!();
          } else feed.end(err); // a pull waiting now rejects with it; a later one sees `changed` first
        },
      },
      admittedOn,
    );
    if (typeof tracked !== 'function') {
      await feed.return!();
      return { errors: [tracked] };
    }
    untrack = tracked;
  }
  const current = o.schema;
  const schemaNow = current ? () => current.schema : () => admittedOn;
  // the hot path runs per event and subscriber: everything that depends only on the subscription is done here, once
  const remote = o.op.needsRemote ? o.instances.prepare(o.tenant, o.op, o.variables) : null;
  const resultWith = (fe: FeedEvent, instance: unknown): Maybe<ExecutionResult> => {
    const payload = toStatusPayload(fe, instance);
    // synchronous for the event's own fields (every resolver is): no promise per event and operation
    const result = execute({
      schema: schemaNow(),
      document: o.op.document,
      operationName: o.op.operation.name?.value,
      rootValue: { instanceStatusChanged: payload },
      variableValues: o.variables,
      fieldResolver: byResponseKey,
    });
    return isPromise(result) ? result.then(masked) : masked(result);
  };
  const toResult = (fe: FeedEvent): Maybe<ExecutionResult> => {
    if (!remote) return resultWith(fe, toInstancePayload(fe.event));
    // a failed load is that event's field error, not the stream's
    return o.instances.load(remote, fe.event.instanceId).then(
      (instance) => resultWith(fe, instance ?? null),
      (err: unknown) => resultWith(fe, err),
    );
  };
  // cursors are per tenant, so a tenant's identical subscriptions see identical results (lag markers aside)
  const opKey =
    o.query && o.cache
      ? o.cache.operationId(
          `${o.tenant}\u0000${o.query}\u0000${o.op.operation.name?.value ?? ''}\u0000${JSON.stringify(o.variables)}`,
        )
      : null;
  const resultOf = (fe: FeedEvent): Maybe<ExecutionResult> =>
    opKey !== null && !fe.lag && o.cache
      ? // snapshot and transition results of one event differ in `kind`
        o.cache.get(fe.seq, opKey * 2 + (fe.kind === 'SNAPSHOT' ? 1 : 0), () => toResult(fe))
      : toResult(fe);
  const done = { done: true as const, value: undefined };
  // the SCHEMA_CHANGED error goes out once; the pull after it is the end
  const endChanged = (err: GraphQLError) => {
    if (reported) return done;
    reported = true;
    throw err;
  };
  const events: StatusRun['events'] = {
    async next() {
      if (changed) return endChanged(changed);
      let r: IteratorResult<FeedEvent>;
      try {
        r = await feed.next();
      } catch (err) {
        untrack();
        if (changed) return endChanged(changed);
        throw err;
      }
      if (changed) return endChanged(changed);
      if (r.done) {
        untrack();
        return done;
      }
      const result = await resultOf(r.value);
      if (changed) return endChanged(changed);
      return { done: false, value: { result, cursor: r.value.cursor } };
    },
    async return() {
      untrack();
      await feed.return!();
      return done;
    },
    [Symbol.asyncIterator]() {
      return events;
    },
  };
  const push = (out: ResultSink) => {
    let open = true;
    const end = (err?: Error) => {
      if (!open) return;
      open = false;
      untrack();
      out.end(err);
    };
    endPush = end;
    const sink: FeedSink = {
      push: (fe) => {
        if (!open) return false;
        // runs inside the stream's read of the bus: whatever fails here ends this subscription only
        try {
          const r = resultOf(fe);
          if (!isPromise(r)) return out.push(r, fe.cursor);
          // still being computed (instance fields from the supergraph): later events queue behind it, in order
          r.then((v) => {
            if (open && out.push(v, fe.cursor)) feed.attach(sink);
          }).catch((err: unknown) => end(asError(err)));
        } catch (err) {
          end(asError(err));
        }
        return false;
      },
      end,
    };
    feed.attach(sink);
    return () => {
      if (open) feed.attach(sink);
    };
  };
  return { events, push };
}

import { buildSchema, GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { readPublicSchema } from '@nvcf/schema';
import { maskError } from '@nvcf/errors';
import { RecentMap } from '@nvcf/collections';
import type { Feed, StatusFilter, StreamEvent, TaskFilter } from '@nvcf/status-stream';
import { fieldsOf, type StatusOperation } from './operation.js';
import type { EntityFetcher } from './entities.js';
import type { StatusSchema } from './schema.js';
import { FeedRun } from './run.js';
import { isPromise, StatusResults, type Maybe } from './results.js';
import { SchemaWatch } from './schema-watch.js';

let schema: GraphQLSchema | undefined;
/** The public schema, to execute status subscriptions locally. */
export const publicSchema = () => (schema ??= buildSchema(readPublicSchema()));

/**
 * A status field's arguments, coerced: its filter (the stream's definition reads the fields it
 * knows) and where to start.
 */
type StatusArgs = StatusFilter & TaskFilter & { after?: string | null; snapshot?: boolean | null };

/** The stream a status field reads (a StatusStream of its definition), as the run opens it. */
export interface FeedSource {
  open(
    tenant: string,
    filter: StatusArgs,
    opts: { after?: string | null; snapshot?: boolean | null },
  ): Promise<Feed<StreamEvent>>;
}

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
  private readonly bySeq: RecentMap<number, Map<number, Maybe<ExecutionResult>>>;
  private readonly operations = new Map<string, number>();
  private nextId = 0;
  constructor(max = 2000) {
    this.bySeq = new RecentMap(max);
  }
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
  /** the stream of the operation's field */
  stream: FeedSource;
  entities: EntityFetcher;
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

/** Opens the feed for an admitted operation, or returns the errors a client should see. */
export async function runStatusSubscription(o: RunOptions): Promise<StatusRun | ExecutionResult> {
  // read before the feed opens: a reload while it opens is caught by the watch below
  const admittedOn = o.admittedOn ?? o.schema?.schema ?? publicSchema();
  const root = fieldsOf(o.op.operation.selectionSet, o.op.fragments)[0];
  const args = getArgumentValues(
    admittedOn.getSubscriptionType()!.getFields()[o.op.field.name],
    root,
    o.variables,
  ) as StatusArgs;
  let feed: Feed<StreamEvent>;
  try {
    feed = await o.stream.open(o.tenant, args, { after: o.lastEventId || args.after, snapshot: args.snapshot });
  } catch (err) {
    return {
      errors: [
        maskError(err instanceof GraphQLError ? err : new GraphQLError('failed', { originalError: err as Error })),
      ],
    };
  }
  const watch = SchemaWatch.start(feed, o.schema, { op: o.op, variables: o.sent ?? o.variables }, admittedOn);
  if (watch instanceof GraphQLError) {
    await feed.return!();
    return { errors: [watch] };
  }
  const current = o.schema;
  const results = new StatusResults({
    ...o,
    schema: current ? () => current.schema : () => admittedOn,
  });
  return new FeedRun(feed, results, watch);
}

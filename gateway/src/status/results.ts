import { execute, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { maskError } from '@nvcf/errors';
import type { FeedEvent, StreamEvent } from '@nvcf/status-stream';
import type { EntityFetcher, PreparedEntities } from './entities.js';
import type { StatusOperation } from './operation.js';
import type { ResultCache } from './execute.js';

export type Maybe<T> = T | Promise<T>;
export const isPromise = <T>(v: Maybe<T>): v is Promise<T> => typeof (v as { then?: unknown }).then === 'function';

// remote entity subtrees are keyed by response name (aliases survive), local payloads by field name
const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  if (source === null || typeof source !== 'object') return undefined;
  const obj = source as Record<string, unknown>;
  const v = obj[info.path.key as string];
  return v !== undefined ? v : obj[info.fieldName];
};

const masked = (r: ExecutionResult): ExecutionResult =>
  r.errors ? { ...r, errors: r.errors.map((x) => maskError(x)) } : r;

export interface ResultsOptions {
  op: StatusOperation;
  variables: Record<string, unknown>;
  tenant: string;
  entities: EntityFetcher;
  cache?: ResultCache;
  /** the request's text, to recognise identical subscriptions */
  query?: string;
  /** the schema to execute against now (a reload replaces it) */
  schema: () => GraphQLSchema;
}

/**
 * A subscription's results, one per feed event. Everything that depends only on the subscription
 * (its remote fetch, its cache key) is done once here; `of` runs per event and subscriber.
 */
export class StatusResults {
  private readonly remote: PreparedEntities | null;
  /** cursors are per tenant, so a tenant's identical subscriptions see identical results (lag markers aside) */
  private readonly opKey: number | null;

  constructor(private readonly o: ResultsOptions) {
    this.remote = o.op.needsRemote ? o.entities.prepare(o.tenant, o.op, o.variables) : null;
    this.opKey =
      o.query && o.cache
        ? o.cache.operationId(
            `${o.tenant}\u0000${o.query}\u0000${o.op.operation.name?.value ?? ''}\u0000${JSON.stringify(o.variables)}`,
          )
        : null;
  }

  of(fe: FeedEvent<StreamEvent>): Maybe<ExecutionResult> {
    const { cache } = this.o;
    return this.opKey !== null && !fe.lag && cache
      ? // snapshot and transition results of one event differ in `kind`
        cache.get(fe.seq, this.opKey * 2 + (fe.kind === 'SNAPSHOT' ? 1 : 0), () => this.compute(fe))
      : this.compute(fe);
  }

  private compute(fe: FeedEvent<StreamEvent>): Maybe<ExecutionResult> {
    const { field } = this.o.op;
    if (!this.remote) return this.execute(fe, field.local(fe.event));
    // a failed load is that event's field error, not the stream's
    return this.o.entities.load(this.remote, field.entityOf(fe.event)).then(
      (entity) => this.execute(fe, entity ? this.withLocal(entity, fe) : null),
      (err: unknown) => this.execute(fe, err),
    );
  }

  /** The fetched subtree with the fields the event answers itself taken from the event. */
  private withLocal(entity: Record<string, unknown>, fe: FeedEvent<StreamEvent>): Record<string, unknown> {
    const { field, localKeys } = this.o.op;
    if (!localKeys.length) return entity;
    const local = field.local(fe.event) as Record<string, unknown>;
    const merged = { ...entity };
    for (const [key, name] of localKeys) merged[key] = local[name];
    return merged;
  }

  private execute(fe: FeedEvent<StreamEvent>, entity: unknown): Maybe<ExecutionResult> {
    const { op } = this.o;
    // synchronous for the event's own fields (every resolver is): no promise per event and operation
    const result = execute({
      schema: this.o.schema(),
      document: op.document,
      operationName: op.operation.name?.value,
      rootValue: op.field.root(fe, entity),
      variableValues: this.o.variables,
      fieldResolver: byResponseKey,
    });
    return isPromise(result) ? result.then(masked) : masked(result);
  }
}

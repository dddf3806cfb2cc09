import { buildSchema, execute, validate, GraphQLError, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getArgumentValues, getVariableValues } from 'graphql/execution/values.js';
import { readPublicSchema } from '@nvcf/schema';
import { maskError } from '@nvcf/errors';
import type { StatusStream, FeedEvent, Feed } from '@nvcf/status-stream';
import { fieldsOf, type StatusOperation } from './operation.js';
import type { InstanceFetcher } from './instances.js';

let schema: GraphQLSchema | undefined;
/** The public schema, to validate and execute status subscriptions locally. */
export const publicSchema = () => (schema ??= buildSchema(readPublicSchema()));

// remote instance subtrees are keyed by response name (aliases survive), local payloads by field name
const byResponseKey: GraphQLFieldResolver<any, any> = (source, _args, _ctx, info) => {
  if (source === null || typeof source !== 'object') return undefined;
  const v = source[info.path.key as string];
  return v !== undefined ? v : source[info.fieldName];
};

export interface StatusRun {
  /** the event stream, each result with the cursor the SSE `id` carries */
  events: AsyncIterableIterator<{ result: ExecutionResult; cursor: string }>;
  feed: Feed;
}

export interface RunOptions {
  op: StatusOperation;
  variables: Record<string, unknown> | null | undefined;
  tenant: string;
  stream: StatusStream;
  instances: InstanceFetcher;
  /** SSE Last-Event-ID: wins over the `after` argument */
  lastEventId?: string | null;
}

/** Opens the feed (validating first) or returns the errors a client should see. */
export async function runStatusSubscription(o: RunOptions): Promise<StatusRun | ExecutionResult> {
  const s = publicSchema();
  const errors = validate(s, o.op.document);
  if (errors.length) return { errors: errors.map((e) => maskError(e)) };
  const vars = getVariableValues(s, o.op.operation.variableDefinitions ?? [], o.variables ?? {});
  if (vars.errors) return { errors: vars.errors.map((e) => maskError(e)) };
  const root = fieldsOf(o.op.operation.selectionSet, o.op.fragments)[0]!;
  const args = getArgumentValues(s.getSubscriptionType()!.getFields().instanceStatusChanged!, root, vars.coerced) as Record<string, any>;
  let feed: Feed;
  try {
    feed = await o.stream.open(o.tenant, args, { after: o.lastEventId || args.after, snapshot: args.snapshot });
  } catch (err) {
    return { errors: [maskError(err instanceof GraphQLError ? err : new GraphQLError('failed', { originalError: err as Error }))] };
  }
  const toResult = async (fe: FeedEvent): Promise<ExecutionResult> => {
    const e = fe.event;
    let instance: unknown = { id: e.instanceId, state: e.state, revisionId: e.revisionId, updatedAt: e.at };
    if (o.op.needsRemote) {
      try { instance = (await o.instances.load(o.tenant, o.op, vars.coerced, e.instanceId)) ?? null; } catch (err) { instance = err; }
    }
    const payload = { cursor: fe.cursor, instance, state: e.state, previousState: e.previousState, revisionId: e.revisionId, at: e.at, message: e.message ?? null, kind: fe.kind, lag: fe.lag };
    const result = await execute({ schema: s, document: o.op.document, operationName: o.op.operation.name?.value, rootValue: { instanceStatusChanged: payload }, variableValues: vars.coerced, fieldResolver: byResponseKey });
    return result.errors ? { ...result, errors: result.errors.map((x) => maskError(x)) } : result;
  };
  const events: StatusRun['events'] = {
    async next() {
      const r = await feed.next();
      if (r.done) return r;
      return { done: false, value: { result: await toResult(r.value), cursor: r.value.cursor } };
    },
    async return() { await feed.return!(); return { done: true, value: undefined }; },
    [Symbol.asyncIterator]() { return events; },
  };
  return { events, feed };
}

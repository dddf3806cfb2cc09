import {
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { fail } from '@nvcf/errors';

/** An open status subscription as a schema change sees it. */
export interface TrackedSubscription {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** the variables as the client sent them */
  variables: Record<string, unknown>;
  /** ends the subscription with `err` and nothing after it; called at most once */
  end(err: GraphQLError): void;
}

// "Did you mean …?" describes the schema: only callers who may introspect get hints (guard.ts)
const withoutHints = (message: string) => message.replace(/ Did you mean .*\?$/, '');

/**
 * The public schema status subscriptions execute against, and the subscriptions open on it.
 * The status path needs no query plan: a new supergraph only changes what a selection may ask
 * for. So a reload keeps every open subscription whose document still validates (and whose
 * variables still coerce) and ends only the others, each with one SCHEMA_CHANGED error: no
 * reconnect storm, and a client that must change its selection is told so instead of retrying.
 */
export class StatusSchema {
  private readonly open = new Set<TrackedSubscription>();
  constructor(private current: GraphQLSchema) {}

  get schema(): GraphQLSchema {
    return this.current;
  }

  /** Subscriptions open right now. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Keeps `sub` until the returned function is called. A subscription admitted on a schema that
   * was replaced before it got here (its feed opens after an await) is checked now: the error
   * to end it with, instead of a release.
   */
  track(sub: TrackedSubscription, admittedOn: GraphQLSchema): (() => void) | GraphQLError {
    if (admittedOn !== this.current) {
      const why = invalidOn(this.current, sub, new Map());
      if (why) return schemaChanged(why);
    }
    this.open.add(sub);
    return () => {
      this.open.delete(sub);
    };
  }

  /**
   * Serves `next` from now on. Every open subscription is checked in this same turn, before any
   * further event executes, and those that no longer validate end: returns how many.
   */
  replace(next: GraphQLSchema): number {
    this.current = next;
    // subscriptions of one client library share a handful of documents: each is validated once
    const verdicts = new Map<DocumentNode, string | null>();
    let ended = 0;
    for (const sub of [...this.open]) {
      const why = invalidOn(next, sub, verdicts);
      if (!why) continue;
      this.open.delete(sub);
      ended++;
      sub.end(schemaChanged(why));
    }
    return ended;
  }
}

function invalidOn(
  schema: GraphQLSchema,
  sub: TrackedSubscription,
  verdicts: Map<DocumentNode, string | null>,
): string | null {
  let why = verdicts.get(sub.document);
  if (why === undefined) {
    why = validate(schema, sub.document, undefined, { maxErrors: 1 })[0]?.message ?? null;
    verdicts.set(sub.document, why);
  }
  if (why) return why;
  // per subscription: the same document with other values may still be fine (or not)
  const coerced = getVariableValues(schema, sub.operation.variableDefinitions ?? [], sub.variables, { maxErrors: 1 });
  return coerced.errors?.[0]?.message ?? null;
}

const schemaChanged = (why: string) =>
  fail(
    'SCHEMA_CHANGED',
    `the gateway loaded a new schema and this subscription no longer validates against it (${withoutHints(why)}); subscribe again with a selection it accepts, with after = the last cursor you received`,
  );

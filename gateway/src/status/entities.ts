import DataLoader from 'dataloader';
import { RecentMap } from '@nvcf/collections';
import { fail } from '@nvcf/errors';
import { inputLimit } from '@nvcf/subgraph-kit';
import { Kind, print, visit, type FieldNode, type FragmentDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { responseKey, type StatusOperation } from './operation.js';

export interface PreparedEntities {
  tenant: string;
  key: string;
  query: string;
  variables: Record<string, unknown>;
  /** the most ids the list field takes at once (its input limit): a larger batch is split */
  maxBatch: number;
}

/** The answer to remoteQuery: one entity subtree per id of the batch, each under its response keys. */
export interface EntitiesData {
  __entities?: (Record<string, unknown> | null)[] | null;
}
export type Execute = (
  tenant: string,
  query: string,
  variables: Record<string, unknown>,
) => Promise<{ data?: EntitiesData | null; errors?: readonly { message: string; extensions?: { code?: unknown } }[] }>;

const ID_KEY = '__nvcfEntityId';

type Result = Awaited<ReturnType<Execute>>;
const unavailable = (res: Result) => !!res.errors?.some((e) => e.extensions?.code === 'UNAVAILABLE');

/**
 * How long an event waits for the stores behind its entity fields (Instance, Task). An event whose fetch
 * failed would reach the client as an error without its cursor, the transition lost to it
 * for good; held back, it arrives complete (and in order) once the store answers again.
 */
export const ENTITY_RETRY = { forMs: 60_000, initialMs: 200, maxMs: 2000, missingForMs: 5000 };

/** The query that fetches a subscription's entity selection (Instance, Task) for many ids at once. */
export function remoteQuery(
  op: StatusOperation,
  variables: Record<string, unknown>,
): { query: string; variables: Record<string, unknown> } {
  const usedFragments = new Set<string>();
  const usedVars = new Set<string>();
  const collect = (node: unknown) =>
    visit(node as FieldNode, {
      FragmentSpread(n) {
        if (!usedFragments.has(n.name.value)) {
          usedFragments.add(n.name.value);
          collect(op.fragments.get(n.name.value));
        }
      },
      Variable(n) {
        usedVars.add(n.name.value);
      },
    });
  // what the event answers is merged from it (StatusOperation.localKeys): not asked of the supergraph
  const local = new Set(op.localKeys.map(([key]) => key));
  const selections = op.entityFields
    .flatMap((f) => f.selectionSet?.selections ?? [])
    .filter((s) => s.kind !== Kind.FIELD || !local.has(responseKey(s)));
  for (const s of selections) collect(s);
  const defs = (op.operation.variableDefinitions ?? []).filter((d: VariableDefinitionNode) =>
    usedVars.has(d.variable.name.value),
  );
  const frags = [...usedFragments].map((n) => op.fragments.get(n)).filter((f): f is FragmentDefinitionNode => !!f);
  const body = selections.map((s) => print(s)).join('\n');
  const { remote } = op.field;
  const varDefs = ['$__ids: [ID!]!', ...defs.map((d) => print(d))].join(', ');
  const query = `query ${remote.operation}(${varDefs}) {\n __entities: ${remote.field}(ids: $__ids) {\n ${ID_KEY}: id\n ${body}\n }\n}\n${frags.map((f) => print(f)).join('\n')}`;
  return {
    query,
    variables: Object.fromEntries([...usedVars].map((v) => [v, variables[v]])),
  };
}

/**
 * Entity subtrees (instances, tasks) through the supergraph, batched: every subscription of one
 * tenant with the same selection that needs entities in the same tick shares one query, each id
 * asked once. The tenant is part of the batch's key and the query's context, so a batch never
 * holds two tenants' ids nor answers one tenant with another's rows.
 */
export class EntityFetcher {
  private readonly loaders: RecentMap<string, DataLoader<string, Record<string, unknown> | null>>;
  constructor(
    private readonly execute: Execute,
    maxLoaders = 1000,
  ) {
    this.loaders = new RecentMap(maxLoaders);
  }

  /** Prints the remote query once per subscription; `load` then runs per event. */
  prepare(tenant: string, op: StatusOperation, variables: Record<string, unknown>): PreparedEntities {
    const q = remoteQuery(op, variables);
    const maxBatch = inputLimit(`Query.${op.field.remote.field}(ids:)`).maxItems!;
    return { tenant, ...q, maxBatch, key: `${tenant}\u0000${q.query}\u0000${JSON.stringify(q.variables)}` };
  }

  load(q: PreparedEntities, id: string) {
    const { key, tenant } = q;
    let loader = this.loaders.get(key);
    if (!loader) {
      // no cache: an entity's fields change between events
      loader = new DataLoader(
        async (ids) => {
          const unique = [...new Set(ids)];
          const res = await this.untilAvailable(() => this.execute(tenant, q.query, { ...q.variables, __ids: unique }));
          const rows = res.data?.__entities ?? [];
          if (!res.data && res.errors?.length) {
            // still unavailable after the wait: say so with the registry code (masked otherwise as an
            // internal error), and how not to lose the transition
            const error = unavailable(res)
              ? fail(
                  'UNAVAILABLE',
                  `the stores behind this event's fields are unavailable right now (${res.errors[0].message}); subscribe again with after = the last cursor you received`,
                )
              : new Error(res.errors[0].message);
            return ids.map(() => error);
          }
          const byId = new Map(
            rows.filter((r): r is Record<string, unknown> => !!r).map((r) => [r[ID_KEY] as string, r]),
          );
          return ids.map((id) => byId.get(id) ?? null);
        },
        { cache: false, maxBatchSize: q.maxBatch },
      );
      this.loaders.set(key, loader);
    }
    return this.untilStored(loader, id);
  }

  /**
   * The event is this gateway's own read of the stream; the services behind the entity's fields
   * read it too and may not have stored this entity's first transition yet (its row is then
   * null). Only that id is asked again, through the same batching, for a few seconds: the rest of
   * its batch is answered at once.
   */
  private async untilStored(loader: DataLoader<string, Record<string, unknown> | null>, id: string) {
    const giveUpAt = Date.now() + ENTITY_RETRY.missingForMs;
    for (let delay = ENTITY_RETRY.initialMs; ; delay = Math.min(delay * 2, ENTITY_RETRY.maxMs)) {
      const row = await loader.load(id);
      if (row || Date.now() + delay > giveUpAt) return row;
      await new Promise((r) => setTimeout(r, delay).unref());
    }
  }

  /** Runs `fetch` again while a dependency answers UNAVAILABLE, for up to ENTITY_RETRY.forMs. */
  private async untilAvailable(fetch: () => Promise<Result>): Promise<Result> {
    const giveUpAt = Date.now() + ENTITY_RETRY.forMs;
    for (let delay = ENTITY_RETRY.initialMs; ; delay = Math.min(delay * 2, ENTITY_RETRY.maxMs)) {
      const res = await fetch();
      if (!unavailable(res) || Date.now() + delay > giveUpAt) return res;
      await new Promise((r) => setTimeout(r, delay).unref());
    }
  }
}

import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { fail } from '@nvcf/errors';

/** What an operation would cost once its fragments are expanded, computed without expanding them. */
export interface Summary {
  depth: number;
  /** fields selected; a field with a list argument counts its selection once per item */
  cost: number;
  aliases: number;
  introspection: boolean;
}

const ZERO: Summary = { depth: 0, cost: 0, aliases: 0, introspection: false };

/** `instances(ids: [...])` returns one object per id: its selection is paid once per item. */
function multiplier(field: FieldNode, variables: Record<string, unknown>): number {
  let m = 1;
  for (const arg of field.arguments ?? []) {
    const v = arg.value;
    if (v.kind === Kind.LIST) m = Math.max(m, v.values.length);
    else if (v.kind === Kind.VARIABLE) {
      const given = variables[v.name.value];
      if (Array.isArray(given)) m = Math.max(m, given.length);
    }
  }
  return m;
}

/**
 * Depth, cost and aliases of a selection set. Each fragment is summarised once (a fragment
 * whose spreads double at every level costs linear time here, where a naive expansion is
 * exponential), and a fragment that spreads itself is refused rather than followed.
 */
export function summarize(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): Summary {
  const memo = new Map<string, Summary>();
  const visiting: string[] = [];
  const walk = (s: SelectionSetNode): Summary => {
    let depth = 0;
    let cost = 0;
    let aliases = 0;
    let introspection = false;
    const add = (x: Summary, d: number, c: number, a: number) => {
      depth = Math.max(depth, d);
      cost += c;
      aliases += a;
      introspection ||= x.introspection;
    };
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        const child = sel.selectionSet ? walk(sel.selectionSet) : ZERO;
        const m = multiplier(sel, variables);
        const meta = sel.name.value === '__schema' || sel.name.value === '__type';
        // the standard introspection query nests type references 15 levels deep over a finite
        // schema: its depth is not the client's choice, so it is not held against the limit
        add(child, meta ? 1 : child.depth + 1, 1 + m * child.cost, (sel.alias ? 1 : 0) + m * child.aliases);
        if (meta) introspection = true;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const child = walk(sel.selectionSet);
        add(child, child.depth, child.cost, child.aliases);
      } else {
        const name = sel.name.value;
        let child = memo.get(name);
        if (!child) {
          const def = fragments.get(name);
          if (!def) continue; // validation names the unknown fragment
          if (visiting.includes(name)) {
            throw fail(
              'GRAPHQL_VALIDATION_FAILED',
              `fragment "${name}" spreads itself (${[...visiting.slice(visiting.indexOf(name)), name].join(' → ')}); fragments must not form cycles`,
            );
          }
          visiting.push(name);
          child = walk(def.selectionSet);
          visiting.pop();
          memo.set(name, child);
        }
        add(child, child.depth, child.cost, child.aliases);
      }
    }
    return { depth, cost, aliases, introspection };
  };
  return walk(set);
}

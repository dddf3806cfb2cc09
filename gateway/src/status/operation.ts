import {
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { STATUS_FIELDS, type StatusField } from './fields.js';

/** what selecting only an entity's key asks for (StatusField.keyedFields) */
const KEY_FIELDS = new Set(['id', '__typename']);

export interface StatusOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  /** the root field it subscribes to */
  field: StatusField;
  /** the entity selections inside the root field (`instance { … }`, `task { … }`, through fragments) */
  entityFields: FieldNode[];
  /** true when some selected entity field lives in another subgraph */
  needsRemote: boolean;
  /**
   * The entity's fields the event answers itself, as [response key, field name], through
   * fragments: in a selection that also needs remote fields these still come from the event (a
   * field's value does not depend on what else is selected), and the remote query leaves out
   * those selected directly.
   */
  localKeys: [string, string][];
}

/**
 * Says whether an admitted operation (parsed, validated and within the cost limits by the
 * guard) subscribes to one of the status fields (instanceStatusChanged, taskStatusChanged), ours
 * to serve.
 */
export function statusOperation(admitted: {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
}): StatusOperation | null {
  const { document, operation, fragments } = admitted;
  if (operation.operation !== OperationTypeNode.SUBSCRIPTION) return null;
  const root = fieldsOf(operation.selectionSet, fragments);
  const field = root.length === 1 ? STATUS_FIELDS.get(root[0].name.value) : undefined;
  if (!field) return null;
  const entityFields = fieldsOf(root[0].selectionSet, fragments).filter((f) => f.name.value === field.entity);
  // a response key is the event's only when every field under it is (`cluster { id }` beside
  // `cluster { name }` merges into one remote subtree)
  const byKey = new Map<string, { name: string; local: boolean }>();
  for (const x of entityFields.flatMap((f) => fieldsOf(f.selectionSet, fragments))) {
    const key = responseKey(x);
    const local = isLocal(field, x, fragments) && (byKey.get(key)?.local ?? true);
    byKey.set(key, { name: x.name.value, local });
  }
  const needsRemote = [...byKey.values()].some((v) => !v.local);
  const localKeys = [...byKey].filter(([, v]) => v.local).map(([key, v]): [string, string] => [key, v.name]);
  return { document, operation, fragments, field, entityFields, needsRemote, localKeys };
}

export const responseKey = (x: FieldNode) => x.alias?.value ?? x.name.value;

/** True when the event answers entity field `x` itself: one it carries, or a keyed one asking only the key. */
function isLocal(field: StatusField, x: FieldNode, fragments: Map<string, FragmentDefinitionNode>): boolean {
  return (
    field.localFields.has(x.name.value) ||
    (field.keyedFields.has(x.name.value) &&
      fieldsOf(x.selectionSet, fragments).every((k) => KEY_FIELDS.has(k.name.value)))
  );
}

/**
 * The fields of a selection set, looking through inline fragments and fragment spreads. The
 * guard has refused cycles and bounded the expansion; a fragment already on the path is
 * still not followed again, so this never recurses without end.
 */
export function fieldsOf(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  path: ReadonlySet<string> = new Set(),
): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of set?.selections ?? []) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(s.selectionSet, fragments, path));
    else if (!path.has(s.name.value)) {
      const f = fragments.get(s.name.value);
      if (f) out.push(...fieldsOf(f.selectionSet, fragments, new Set(path).add(s.name.value)));
    }
  }
  return out;
}

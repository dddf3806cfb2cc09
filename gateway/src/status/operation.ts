import {
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

export const STATUS_FIELD = 'instanceStatusChanged';
/** Instance fields every status event carries itself: no supergraph fetch needed for them. */
const LOCAL_INSTANCE_FIELDS = new Set(['id', 'state', 'revisionId', 'targetRevisionId', 'updatedAt', '__typename']);
/**
 * Entities the event names by key: selecting only their key needs no fetch either, as a
 * federation planner answers `{ cluster { id } }` from the key it already holds.
 */
const KEYED_INSTANCE_FIELDS = new Set(['cluster', 'gpuSpecification']);
const KEY_FIELDS = new Set(['id', '__typename']);

export interface StatusOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  /** the `instance { … }` selections inside the root field (through fragments) */
  instanceFields: FieldNode[];
  /** true when some selected Instance field lives in another subgraph */
  needsRemote: boolean;
}

/**
 * Says whether an admitted operation (parsed, validated and within the cost limits by the
 * guard) is an instanceStatusChanged subscription, ours to serve.
 */
export function statusOperation(admitted: {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
}): StatusOperation | null {
  const { document, operation, fragments } = admitted;
  if (operation.operation !== OperationTypeNode.SUBSCRIPTION) return null;
  const root = fieldsOf(operation.selectionSet, fragments);
  if (root.length !== 1 || root[0].name.value !== STATUS_FIELD) return null;
  const instanceFields = fieldsOf(root[0].selectionSet, fragments).filter((f) => f.name.value === 'instance');
  const local = (x: FieldNode) =>
    LOCAL_INSTANCE_FIELDS.has(x.name.value) ||
    (KEYED_INSTANCE_FIELDS.has(x.name.value) &&
      fieldsOf(x.selectionSet, fragments).every((k) => KEY_FIELDS.has(k.name.value)));
  const needsRemote = instanceFields.some((f) => !fieldsOf(f.selectionSet, fragments).every(local));
  return { document, operation, fragments, instanceFields, needsRemote };
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

import {
  getOperationAST,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import { fail } from '@nvcf/errors';
import { inputLimits as defaultLimits, type InputLimit, type InputLimits, type LimitCode } from './input-limits.js';
import { jsonExtent } from './json-extent.js';

export interface InputViolation {
  /** the argument path, e.g. input.container.image or input.gpuSpecifications[0].configuration */
  field: string;
  /** the schema coordinate whose bound was crossed, e.g. ContainerWorkloadInput.image */
  coordinate: string;
  unit: 'characters' | 'items' | 'bytes' | 'levels';
  limit: number;
  size: number;
  code: LimitCode;
  /** strings with a lower bound too: the allowed length range */
  range?: [number, number];
}

export interface OperationInputs {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  /** the operation, when the caller has already resolved it */
  operation?: OperationDefinitionNode | null;
  /** the request's variables as sent (before coercion) */
  variables?: Record<string, unknown> | null;
}

/** Federation's own root fields: the gateway builds their arguments, not the client. */
const INTERNAL_FIELDS = new Set(['_entities', '_service']);

/** A value at an input position: sent in variables, or written in the document. */
type Val = { raw: unknown } | { ast: ValueNode };
/** Where a value is, built into a string only for the error. */
type Path = { prev: Path | undefined; key: string | number };
const pathString = (p: Path): string => {
  const keys: (string | number)[] = [];
  for (let at: Path | undefined = p; at; at = at.prev) keys.push(at.key);
  return keys
    .reverse()
    .reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : out ? `${out}.${k}` : k), '');
};

/** An input field's coordinate and bound, looked up once per field and set of limits. */
type Bound = { coordinate: string; limit: InputLimit | undefined };
const boundCache = new WeakMap<InputLimits, WeakMap<object, Bound>>();
function boundOf(limits: InputLimits, key: object, coordinate: () => string): Bound {
  let byKey = boundCache.get(limits);
  if (!byKey) boundCache.set(limits, (byKey = new WeakMap()));
  let b = byKey.get(key);
  if (!b) {
    const c = coordinate();
    byKey.set(key, (b = { coordinate: c, limit: Object.hasOwn(limits.fields, c) ? limits.fields[c] : undefined }));
  }
  return b;
}

class Exceeded extends Error {
  constructor(readonly violation: InputViolation) {
    super(violation.field);
  }
}

/**
 * The first input value of the operation's root fields that crosses its bound, or undefined.
 * Walks the values as sent (variables) or written (literals, variable defaults) against the
 * argument types, so it runs before coercion and costs one pass over the input; a value of the
 * wrong type is left to coercion to report.
 */
export function findInputViolation(
  op: OperationInputs,
  limits: InputLimits = defaultLimits,
): InputViolation | undefined {
  const operation = op.operation ?? getOperationAST(op.document, op.operationName ?? undefined);
  if (!operation) return undefined;
  const root = op.schema.getRootType(operation.operation);
  if (!root) return undefined;
  const fields = root.getFields();
  const variables = op.variables ?? {};
  let defaults: Map<string, VariableDefinitionNode> | undefined;
  const resolveVariable = (name: string): Val | undefined => {
    if (Object.hasOwn(variables, name)) return { raw: variables[name] };
    defaults ??= new Map(operation.variableDefinitions?.map((d) => [d.variable.name.value, d]) ?? []);
    const def = defaults.get(name)?.defaultValue;
    return def ? { ast: def } : undefined;
  };

  const visit = (
    type: GraphQLInputType,
    val: Val,
    path: Path,
    coordinate: string,
    limit: InputLimit | undefined,
  ): number => {
    if ('ast' in val && val.ast.kind === Kind.VARIABLE) {
      const resolved = resolveVariable(val.ast.name.value);
      return resolved ? visit(type, resolved, path, coordinate, limit) : 0;
    }
    if (isNonNullType(type)) return visit(type.ofType, val, path, coordinate, limit);
    if (isListType(type)) {
      // a single value where a list is expected is coerced to a list of one
      const raws = 'raw' in val ? (Array.isArray(val.raw) ? val.raw : val.raw == null ? [] : [val.raw]) : undefined;
      const asts =
        'ast' in val
          ? val.ast.kind === Kind.LIST
            ? val.ast.values
            : val.ast.kind === Kind.NULL
              ? []
              : [val.ast]
          : undefined;
      const count = raws ? raws.length : asts!.length;
      const maxItems = limit?.maxItems ?? limits.defaults.list.maxItems;
      if (count > maxItems) throw exceeded(path, coordinate, 'items', maxItems, count, limit);
      let total = 0;
      for (let i = 0; i < count; i++)
        total += visit(
          type.ofType,
          raws ? { raw: raws[i] } : { ast: asts![i] },
          { prev: path, key: i },
          coordinate,
          limit,
        );
      if (limit?.maxTotalBytes != null && total > limit.maxTotalBytes)
        throw exceeded(path, coordinate, 'bytes', limit.maxTotalBytes, total, limit);
      return total;
    }
    if (isInputObjectType(type)) {
      const defs = type.getFields();
      const child = (name: string, v: Val) => {
        const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
        if (!def) return; // unknown fields are the validator's (or coercion's) to report
        const b = boundOf(limits, def, () => `${type.name}.${name}`);
        visit(def.type, v, { prev: path, key: name }, b.coordinate, b.limit);
      };
      if ('raw' in val) {
        const raw = val.raw;
        if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
          for (const name of Object.keys(raw)) child(name, { raw: (raw as Record<string, unknown>)[name] });
      } else if (val.ast.kind === Kind.OBJECT) {
        for (const f of val.ast.fields) child(f.name.value, { ast: f.value });
      }
      return 0;
    }
    if (!isScalarType(type)) return 0; // enums are bounded by the schema
    if (type.name === 'JSON') {
      const maxBytes = limit?.maxBytes ?? limits.defaults.JSON.maxBytes;
      const maxDepth = limit?.maxDepth ?? limits.defaults.JSON.maxDepth;
      const { bytes, depth } = jsonExtent(val, variables);
      if (depth > maxDepth) throw exceeded(path, coordinate, 'levels', maxDepth, depth, limit);
      if (bytes > maxBytes) throw exceeded(path, coordinate, 'bytes', maxBytes, bytes, limit);
      return bytes;
    }
    if (type.name !== 'String' && type.name !== 'ID') return 0;
    const text = 'raw' in val ? val.raw : val.ast.kind === Kind.STRING ? val.ast.value : undefined;
    if (typeof text !== 'string') return 0;
    const maxLength = limit?.maxLength ?? limits.defaults[type.name].maxLength;
    const min = limit?.minLength;
    if (text.length > maxLength || (min != null && text.length < min)) {
      const err = exceeded(
        path,
        coordinate,
        'characters',
        text.length > maxLength ? maxLength : min!,
        text.length,
        limit,
      );
      if (min != null) err.violation.range = [min, maxLength];
      throw err;
    }
    return 0;
  };

  try {
    for (const field of rootFields(operation.selectionSet, op.document)) {
      const name = field.name.value;
      if (INTERNAL_FIELDS.has(name) || !field.arguments?.length) continue;
      const def = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (!def) continue;
      for (const arg of field.arguments) {
        const argDef = def.args.find((a) => a.name === arg.name.value);
        if (!argDef) continue;
        const b = boundOf(limits, argDef, () => `${root.name}.${name}(${argDef.name}:)`);
        visit(argDef.type, { ast: arg.value }, { prev: undefined, key: argDef.name }, b.coordinate, b.limit);
      }
    }
  } catch (err) {
    if (err instanceof Exceeded) return err.violation;
    throw err;
  }
  return undefined;
}

/** The registry error for an input that crosses its bound: the message names the path, size and limit. */
export function inputLimitError(v: InputViolation): GraphQLError {
  const message = v.range
    ? `${v.field} must be ${v.range[0]} to ${v.range[1]} characters (got ${v.size})`
    : v.unit === 'levels'
      ? `${v.field} nests objects and arrays ${v.size} levels deep; the limit is ${v.limit} levels`
      : v.unit === 'items'
        ? `${v.field} has ${v.size} items; the limit is ${v.limit} items`
        : `${v.field} is ${v.size} ${v.unit}; the limit is ${v.limit} ${v.unit}`;
  return fail(v.code, message, { field: v.field, limit: v.limit, size: v.size, unit: v.unit });
}

/** The LIMIT_EXCEEDED (or BAD_USER_INPUT) error for the operation's first oversize input, or undefined. */
export function checkOperationInputs(op: OperationInputs, limits?: InputLimits): GraphQLError | undefined {
  const v = findInputViolation(op, limits);
  return v && inputLimitError(v);
}

function exceeded(
  path: Path,
  coordinate: string,
  unit: InputViolation['unit'],
  limit: number,
  size: number,
  entry: InputLimit | undefined,
) {
  return new Exceeded({
    field: pathString(path),
    coordinate,
    unit,
    limit,
    size,
    code: entry?.code ?? 'LIMIT_EXCEEDED',
  });
}

/** The root fields of a selection set, through inline fragments and fragment spreads (each spread once). */
function rootFields(selectionSet: SelectionSetNode, document: DocumentNode): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  let fragments: Map<string, FragmentDefinitionNode> | undefined;
  const sets = [selectionSet];
  while (sets.length) {
    for (const s of sets.pop()!.selections) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) sets.push(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        fragments ??= new Map(
          document.definitions
            .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
            .map((d) => [d.name.value, d]),
        );
        const f = fragments.get(s.name.value);
        if (f) sets.push(f.selectionSet);
      }
    }
  }
  return out;
}

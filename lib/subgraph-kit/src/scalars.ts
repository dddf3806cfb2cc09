import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { fail } from '@nvcf/errors';

function literal(node: ValueNode, vars?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literal(v, vars));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value, vars)]));
    case Kind.VARIABLE:
      return vars?.[node.name.value];
    default:
      return undefined;
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (node, vars) => literal(node, vars),
});

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  serialize: (v) => (v instanceof Date ? v.toISOString() : v),
  parseValue: (v) => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
      throw fail('BAD_USER_INPUT', `DateTime must be an ISO-8601 string (got ${JSON.stringify(v)})`);
    return v;
  },
});

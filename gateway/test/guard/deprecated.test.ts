import { buildSchema } from 'graphql';
import { OperationGuard } from '../../src/guard/guard.js';
import { deprecatedUses, hasDeprecations } from '../../src/guard/deprecated.js';
import { DeprecationMetrics } from '../../src/metrics.js';
import { defaultLimits } from '../../src/limits.js';

const schema = buildSchema(`
  type Query {
    a: A
    old: String @deprecated(reason: "use a")
    list(first: Int, limit: Int @deprecated(reason: "use first"), order: Order, filter: Filter): [A]
  }
  type A { id: ID  name: String @deprecated(reason: "use id")  a: A }
  enum Order { ASC DESC OLDEST @deprecated(reason: "use ASC") }
  input Filter { name: String  legacy: String @deprecated(reason: "use name") }
`);
const caller = { introspection: true };

describe('deprecated fields at the guard', () => {
  it('lists the deprecated fields, arguments, input fields and enum values an operation uses, through fragments', () => {
    const guard = new OperationGuard(schema, defaultLimits);
    const op = guard.check(
      {
        query:
          'query Q($f: Filter) { old a { ...F } list(limit: 2, order: OLDEST, filter: { legacy: "x" }) { id } again: list(filter: $f) { id } } fragment F on A { a { name } }',
      },
      caller,
    );
    expect(op.deprecated).toEqual(['A.name', 'Filter.legacy', 'Order.OLDEST', 'Query.list(limit:)', 'Query.old']);
    expect(guard.check({ query: '{ a { id } list(first: 1, order: ASC) { id } }' }, caller).deprecated).toEqual([]);
  });

  it('counts only what the operation run reaches, not the other operations and fragments of the document', () => {
    const guard = new OperationGuard(schema, defaultLimits);
    const query =
      'query Old { a { ...Other } } query New { a { ...Used } } fragment Used on A { id } fragment Other on A { name }';
    expect(guard.check({ query, operationName: 'New' }, caller).deprecated).toEqual([]);
    expect(guard.check({ query, operationName: 'Old' }, caller).deprecated).toEqual(['A.name']);
  });

  it('walks each distinct document once: the list is cached per document and operation', () => {
    const guard = new OperationGuard(schema, defaultLimits);
    const first = guard.check({ query: 'query Q { old a { name } }' }, caller).deprecated;
    expect(guard.check({ query: 'query Q { old a { name } }' }, caller).deprecated).toBe(first);
  });

  it('skips the walk when the schema deprecates nothing', () => {
    const plain = buildSchema('type Query { a: String }');
    expect(hasDeprecations(plain)).toBe(false);
    expect(hasDeprecations(schema)).toBe(true);
    expect(new OperationGuard(plain, defaultLimits).check({ query: '{ a }' }, caller).deprecated).toEqual([]);
    const op = new OperationGuard(schema, defaultLimits).check({ query: '{ old }' }, caller);
    expect(deprecatedUses(schema, op.operation, op.fragments)).toEqual(['Query.old']);
  });
});

describe('deprecated field metric', () => {
  it('counts uses per field and operation in Prometheus text', () => {
    const m = new DeprecationMetrics();
    m.count(['Query.old', 'A.name'], 'Q');
    m.count(['Query.old'], 'Q');
    m.count(['Query.old'], 'anonymous');
    const text = m.render();
    expect(text).toContain('# TYPE nvcf_gateway_deprecated_field_uses_total counter');
    expect(text).toContain('nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="Q"} 2');
    expect(text).toContain('nvcf_gateway_deprecated_field_uses_total{field="A.name",operation="Q"} 1');
    expect(text).toContain('nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="anonymous"} 1');
  });

  it('bounds its series: operation names are the client\'s, so past the limit they share "(other)"', () => {
    const m = new DeprecationMetrics(3);
    for (let i = 0; i < 100; i++) m.count(['Query.old'], `Op${i}`);
    const lines = m
      .render()
      .split('\n')
      .filter((l) => l.startsWith('nvcf_'));
    expect(lines).toEqual([
      'nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="Op0"} 1',
      'nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="Op1"} 1',
      'nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="Op2"} 1',
      'nvcf_gateway_deprecated_field_uses_total{field="Query.old",operation="(other)"} 97',
    ]);
  });
});

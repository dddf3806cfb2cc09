import { buildSchema } from 'graphql';
import { codeOf } from '@nvcf/errors';
import { OperationGuard, ValidationErrors } from '../../src/guard/guard.js';
import { TenantRate } from '../../src/guard/rate.js';
import { checkVariableDepth } from '../../src/guard/variables.js';
import { defaultLimits } from '../../src/limits.js';

const schema = buildSchema(`
  type Query { a: A  list(ids: [ID!]!): [A]  s(x: String): String }
  type A { id: ID  a: A  b: [A] }
`);
const guard = new OperationGuard(schema, defaultLimits);
const caller = { introspection: true };
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return {
      code: err instanceof ValidationErrors ? codeOf(err.errors[0]) : codeOf(err),
      message: (err as Error).message,
    };
  }
  throw new Error('expected a refusal');
};

describe('operation guard', () => {
  it('summarises fragments once: a 40-level doubling bomb is priced (2^40 fields), not expanded', () => {
    let doc = '{ a { ...F39 } } fragment F0 on A { id }';
    for (let i = 1; i < 40; i++) doc += ` fragment F${i} on A { ...F${i - 1} ...F${i - 1} }`;
    const r = refusal(() => guard.check({ query: doc }, caller));
    expect(r.code).toBe('LIMIT_EXCEEDED');
    expect(r.message).toContain(`${2 ** 39 + 1} fields`);
  });

  it('refuses fragment cycles, direct and indirect, naming them', () => {
    expect(refusal(() => guard.check({ query: '{ a { ...X } } fragment X on A { ...X }' }, caller))).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      message: expect.stringContaining('X → X'),
    });
    expect(
      refusal(() =>
        guard.check({ query: '{ a { ...X } } fragment X on A { a { ...Y } } fragment Y on A { b { ...X } }' }, caller),
      ).message,
    ).toContain('X → Y → X');
  });

  it('counts depth and aliases through fragments and inline fragments', () => {
    const deep = `{ ${'a { '.repeat(12)}id${' }'.repeat(12)} }`;
    expect(refusal(() => guard.check({ query: deep }, caller)).message).toContain('13 levels deep');
    expect(guard.check({ query: `{ ${'a { '.repeat(11)}id${' }'.repeat(11)} }` }, caller).operation.operation).toBe(
      'query',
    );
    const viaFragments = '{ a { ...F } } fragment F on A { ... on A { a { ...G } } } fragment G on A { x1: id x2: id }';
    expect(guard.check({ query: viaFragments }, caller).fragments.size).toBe(2);
    const many = `{ ${Array.from({ length: 6 }, (_, i) => `q${i}: a { ...G }`).join(' ')} } fragment G on A { ${Array.from({ length: 5 }, (_, i) => `x${i}: id`).join(' ')} }`;
    expect(refusal(() => guard.check({ query: many }, caller)).message).toContain('36 aliased fields');
  });

  it('prices list arguments per item, from literals and from variables', () => {
    const tight = new OperationGuard(schema, { ...defaultLimits, maxCost: 200 });
    const ids = Array.from({ length: 100 }, (_, i) => `i${i}`);
    expect(
      refusal(() =>
        tight.check({ query: 'query($ids: [ID!]!) { list(ids: $ids) { id a { id } } }', variables: { ids } }, caller),
      ).message,
    ).toContain('301 fields');
    expect(
      refusal(() =>
        tight.check({ query: `{ list(ids: [${ids.map((i) => `"${i}"`).join(',')}]) { id a { id } } }` }, caller),
      ).message,
    ).toContain('301 fields');
    expect(
      tight.check({ query: 'query($ids: [ID!]!) { list(ids: $ids) { id } }', variables: { ids } }, caller).variables,
    ).toEqual({ ids });
  });

  it('stops the parser at the token limit and refuses long documents before parsing', () => {
    expect(refusal(() => guard.check({ query: `{ ${'s '.repeat(1200)}}` }, caller)).message).toContain(
      'more than 1000 tokens',
    );
    expect(refusal(() => guard.check({ query: `{ s } #${'x'.repeat(40_000)}` }, caller)).message).toContain(
      'characters',
    );
  });

  it('gives syntax, validation and variable errors their own codes, all of them', () => {
    expect(refusal(() => guard.check({ query: '{ a {' }, caller)).code).toBe('GRAPHQL_PARSE_FAILED');
    expect(refusal(() => guard.check({ query: '{ nope }' }, caller)).code).toBe('GRAPHQL_VALIDATION_FAILED');
    try {
      guard.check({ query: '{ nope1 nope2 }' }, caller);
      throw new Error('expected a refusal');
    } catch (err) {
      expect((err as ValidationErrors).errors.map((e) => e.message)).toHaveLength(2);
    }
    expect(
      refusal(() => guard.check({ query: 'query($x: String) { s(x: $x) }', variables: { x: { no: 1 } } }, caller)),
    ).toEqual({ code: 'BAD_USER_INPUT', message: expect.stringContaining('$x') });
  });

  it('keeps schema hints from callers who may not introspect, and introspection itself', () => {
    expect(refusal(() => guard.check({ query: '{ ss }' }, caller)).message).toContain('Did you mean');
    expect(refusal(() => guard.check({ query: '{ ss }' }, { introspection: false })).message).not.toContain(
      'Did you mean',
    );
    expect(
      refusal(() => guard.check({ query: '{ __schema { types { name } } }' }, { introspection: false })).code,
    ).toBe('FORBIDDEN');
    expect(
      refusal(() =>
        guard.check({ query: '{ a { ... on A { id } } x: __type(name: "A") { name } }' }, { introspection: false }),
      ).code,
    ).toBe('FORBIDDEN');
    expect(guard.check({ query: '{ __typename }' }, { introspection: false }).operation.operation).toBe('query');
  });

  it('checks variable nesting iteratively: 200 000 levels do not overflow the stack', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(() => checkVariableDepth({ v }, 64)).toThrow('nested more than 64 levels');
    expect(() => checkVariableDepth({ v: { a: [{ b: 1 }] } }, 3)).not.toThrow();
    expect(() => checkVariableDepth({ v: { a: [{ b: {} }] } }, 3)).toThrow('$v.a[0].b');
  });
});

describe('tenant rate', () => {
  it('lets a burst through, then one per 1/rate seconds, per tenant', () => {
    const rate = new TenantRate(2, 3, 'operations');
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) rate.take('a', t0);
    const err = (() => {
      try {
        rate.take('a', t0);
      } catch (e) {
        return e as { extensions: Record<string, unknown> };
      }
    })();
    expect(err?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(() => rate.take('b', t0)).not.toThrow();
    expect(() => rate.take('a', t0 + 500)).not.toThrow();
    expect(() => rate.take('a', t0 + 500)).toThrow('retry in 1 s');
  });
  it('a rate of 0 is off', () => {
    const off = new TenantRate(0, 0, 'operations');
    for (let i = 0; i < 1000; i++) off.take('a');
  });
});

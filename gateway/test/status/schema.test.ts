import { buildSchema, parse, getOperationAST, type GraphQLError } from 'graphql';
import { StatusSchema, type TrackedSubscription } from '../../src/status/schema.js';

const sdl = (eventFields: string) => `
  type Query { ok: Boolean }
  type Subscription { instanceStatusChanged(functionId: ID, after: String): Event! }
  type Event { cursor: String! ${eventFields} }
`;
const before = buildSchema(sdl('message: String state: String'));

function sub(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  const ended: GraphQLError[] = [];
  const s: TrackedSubscription = {
    document,
    operation: getOperationAST(document)!,
    variables,
    end: (err) => ended.push(err),
  };
  return { s, ended };
}

describe('StatusSchema', () => {
  it('ends only the subscriptions the new schema refuses, each once, with SCHEMA_CHANGED', () => {
    const schema = new StatusSchema(before);
    const keeps = sub('subscription { instanceStatusChanged(functionId: "f") { cursor state } }');
    const breaks = sub('subscription { instanceStatusChanged(functionId: "f") { cursor message } }');
    const same = sub('subscription { instanceStatusChanged(functionId: "f") { cursor message } }');
    for (const x of [keeps, breaks, same]) schema.track(x.s, before);
    expect(schema.replace(buildSchema(sdl('state: String')))).toBe(2);
    expect(keeps.ended).toEqual([]);
    for (const x of [breaks, same]) {
      expect(x.ended).toHaveLength(1);
      expect(x.ended[0].extensions.code).toBe('SCHEMA_CHANGED');
      expect(x.ended[0].message).toContain('Cannot query field "message"');
    }
    expect(schema.size).toBe(1);
    // the next reload does not end them again
    expect(schema.replace(buildSchema(sdl('')))).toBe(1);
    expect(breaks.ended).toHaveLength(1);
  });

  it('checks the variables as sent against the new argument types', () => {
    const schema = new StatusSchema(before);
    const x = sub('subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor } }', { f: 'fn' });
    schema.track(x.s, before);
    const renamed = buildSchema(`
      type Query { ok: Boolean }
      type Subscription { instanceStatusChanged(fn: ID, after: String): Event! }
      type Event { cursor: String! }
    `);
    expect(schema.replace(renamed)).toBe(1);
    expect(x.ended[0].message).toContain('Unknown argument "functionId"');
  });

  it('refuses at track time a subscription admitted on a schema replaced since, and releases on untrack', () => {
    const schema = new StatusSchema(before);
    const after = buildSchema(sdl('state: String'));
    schema.replace(after);
    const stale = sub('subscription { instanceStatusChanged(functionId: "f") { message } }');
    const refused = schema.track(stale.s, before);
    expect(typeof refused).not.toBe('function');
    expect((refused as GraphQLError).extensions.code).toBe('SCHEMA_CHANGED');
    const fine = sub('subscription { instanceStatusChanged(functionId: "f") { state } }');
    const release = schema.track(fine.s, before);
    expect(typeof release).toBe('function');
    expect(schema.size).toBe(1);
    (release as () => void)();
    expect(schema.size).toBe(0);
  });
});

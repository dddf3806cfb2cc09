import { buildSchema, parse } from 'graphql';
import { readPublicSchema } from '@nvcf/schema';
import {
  findInputViolation,
  checkOperationInputs,
  inputLimits,
  jsonExtent,
  jsonStringBytes,
  type InputLimits,
} from '../src/index.js';

const schema = buildSchema(readPublicSchema());
const violation = (query: string, variables?: Record<string, unknown>, limits?: InputLimits) =>
  findInputViolation({ schema, document: parse(query), variables }, limits);

const CREATE = 'mutation($input: CreateFunctionInput!) { createFunction(input: $input) { id } }';
const DEPLOY = 'mutation($v: ID!, $input: DeployInput!) { deployFunctionVersion(versionId: $v, input: $input) { id } }';
const UPDATE =
  'mutation($id: ID!, $input: UpdateGpuSpecificationInput!) { updateGpuSpecification(id: $id, input: $input) { id } }';
const helm = { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' };
const spec = (over: object = {}) => ({ gpu: 'L40S', instanceType: 'x', minInstances: 1, maxInstances: 1, ...over });
const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

describe('jsonExtent', () => {
  it('counts the bytes of JSON.stringify exactly, escapes and multi-byte characters included', () => {
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      -1.5,
      1e21,
      '',
      'plain',
      'quote " backslash \\ newline \n tab \t bell \u0007',
      'é 漢 😀',
      'lone \ud800 surrogate \udc00',
      [],
      {},
      [1, 'a', null, [[]]],
      { a: { b: [1, { c: 'd' }] }, 'k"ey': 'v' },
      { skipped: undefined, kept: 1 },
      [undefined, 2],
    ];
    for (const v of values) expect(jsonExtent({ raw: v }).bytes).toBe(Buffer.byteLength(JSON.stringify(v)));
    for (const s of ['', 'x', '"\\\u0000\u001f', '😀', '\udfff'])
      expect(jsonStringBytes(s)).toBe(Buffer.byteLength(JSON.stringify(s)));
  });

  it('measures depth: a scalar is 0, {} is 1, {"a": []} is 2', () => {
    expect(jsonExtent({ raw: 'x' }).depth).toBe(0);
    expect(jsonExtent({ raw: {} }).depth).toBe(1);
    expect(jsonExtent({ raw: { a: [] } }).depth).toBe(2);
    expect(jsonExtent({ raw: [[1], [[2]]] }).depth).toBe(3);
  });

  it('walks a value nested 100 000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
    // JSON.stringify (what the size check used) throws RangeError on this value
    const started = performance.now();
    const e = jsonExtent({ raw: deep });
    expect(e.depth).toBe(100_000);
    expect(e.bytes).toBe(100_000 * 6 + 1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('measures literals, with variables inside them, as the JSON scalar turns them into values', () => {
    const doc = parse('{ f(x: { a: [1, 2.5, "s", true, null], b: { c: $v } }) }');
    const value = (doc.definitions[0] as any).selectionSet.selections[0].arguments[0].value;
    const e = jsonExtent({ ast: value }, { v: { d: [1] } });
    expect(e).toEqual({
      bytes: Buffer.byteLength(JSON.stringify({ a: [1, 2.5, 's', true, null], b: { c: { d: [1] } } })),
      depth: 4,
    });
  });
});

describe('findInputViolation', () => {
  it('lets an ordinary request through', () => {
    expect(violation(CREATE, { input: { name: 'echo', inferenceUrl: '/v1', helm } })).toBeUndefined();
    expect(
      violation(DEPLOY, { v: 'id', input: { gpuSpecifications: [spec({ configuration: { replicas: 1 } })] } }),
    ).toBeUndefined();
    expect(violation('{ functions { id } }')).toBeUndefined();
  });

  it('names the path of a string past its bound, from variables and from literals', () => {
    const image = 'i'.repeat(513);
    expect(violation(CREATE, { input: { name: 'x', container: { image } } })).toMatchObject({
      field: 'input.container.image',
      coordinate: 'ContainerWorkloadInput.image',
      unit: 'characters',
      limit: 512,
      size: 513,
      code: 'LIMIT_EXCEEDED',
    });
    expect(
      violation(`mutation { createFunction(input: { name: "x", container: { image: "${image}" } }) { id } }`),
    ).toMatchObject({ field: 'input.container.image', size: 513 });
    expect(violation(CREATE, { input: { name: 'x', container: { image: 'i'.repeat(512) } } })).toBeUndefined();
  });

  it('applies the type defaults where a position has no bound of its own', () => {
    expect(violation('query($id: ID!) { function(id: $id) { id } }', { id: 'x'.repeat(129) })).toMatchObject({
      field: 'id',
      unit: 'characters',
      limit: 128,
    });
    expect(
      violation(UPDATE, { id: 's', input: { revision: { configuration: { blob: 'x'.repeat(70_000) } } } }),
    ).toMatchObject({ field: 'input.revision.configuration', unit: 'bytes', limit: 65536 });
  });

  it('checks list lengths and each item', () => {
    const args = (n: number, len = 1) => ({
      input: { name: 'x', container: { image: 'i', args: Array.from({ length: n }, () => 'a'.repeat(len)) } },
    });
    expect(violation(CREATE, args(129))).toMatchObject({
      field: 'input.container.args',
      unit: 'items',
      limit: 128,
      size: 129,
    });
    expect(violation(CREATE, args(128))).toBeUndefined();
    expect(
      violation(CREATE, { input: { name: 'x', container: { image: 'i', args: ['ok', 'a'.repeat(4097)] } } }),
    ).toMatchObject({ field: 'input.container.args[1]', limit: 4096 });
    expect(
      violation('query($ids: [ID!]!) { instances(ids: $ids) { id } }', {
        ids: Array.from({ length: 1001 }, (_, i) => `${i}`),
      }),
    ).toMatchObject({ field: 'ids', limit: 1000 });
    // a single value where a list is expected is coerced to a list of one
    expect(
      violation(CREATE, { input: { name: 'x', container: { image: 'i', args: 'a'.repeat(4097) } } }),
    ).toMatchObject({ field: 'input.container.args[0]' });
  });

  it('refuses JSON nested deeper than its bound, even 10 000 levels deep in variables', () => {
    const input = (configuration: unknown) => ({
      v: 'id',
      input: { gpuSpecifications: [spec(), spec({ configuration })] },
    });
    expect(violation(DEPLOY, input(nested(10_000)))).toMatchObject({
      field: 'input.gpuSpecifications[1].configuration',
      unit: 'levels',
      limit: 32,
      size: 10_000,
    });
    expect(violation(DEPLOY, input(nested(33)))).toMatchObject({ unit: 'levels', size: 33 });
    expect(violation(DEPLOY, input(nested(32)))).toBeUndefined();
  });

  it('bounds the total size of a list of JSON values', () => {
    const patch = { spec: { blob: 'x'.repeat(40_000) } };
    expect(violation(UPDATE, { id: 's', input: { revision: { manifestMergePatches: [patch] } } })).toBeUndefined();
    expect(violation(UPDATE, { id: 's', input: { revision: { manifestMergePatches: [patch, patch] } } })).toMatchObject(
      { field: 'input.revision.manifestMergePatches', unit: 'bytes', limit: 65536 },
    );
  });

  it('follows variable defaults, fragments and aliases to every root field', () => {
    const long = 'n'.repeat(200);
    expect(violation(`query($id: ID = "${long}") { function(id: $id) { id } }`)).toMatchObject({ field: 'id' });
    expect(
      violation(
        `query { ...F } fragment F on Query { ... on Query { a: functionVersion(id: "ok") { id } b: function(id: "${long}") { id } } }`,
      ),
    ).toMatchObject({ field: 'id', size: 200 });
  });

  it('domain bounds carry BAD_USER_INPUT and the allowed range', () => {
    expect(violation(CREATE, { input: { name: 'n'.repeat(129), helm } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      range: [1, 128],
    });
    expect(violation(CREATE, { input: { name: '', helm } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      limit: 1,
      size: 0,
    });
    const err = checkOperationInputs({
      schema,
      document: parse(CREATE),
      variables: { input: { name: 'n'.repeat(129), helm } },
    })!;
    expect(err.message).toBe('input.name must be 1 to 128 characters (got 129)');
    expect(err.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'input.name',
      limit: 128,
      size: 129,
      unit: 'characters',
    });
  });

  it('leaves values of the wrong type, unknown fields and unknown operations to validation', () => {
    expect(violation(CREATE, { input: { name: 5, container: 'nope', bogus: 'x'.repeat(10_000) } })).toBeUndefined();
    expect(violation(CREATE, { input: null })).toBeUndefined();
    expect(
      findInputViolation({ schema, document: parse(CREATE), operationName: 'Other', variables: {} }),
    ).toBeUndefined();
  });

  it('takes other bounds', () => {
    const tight: InputLimits = { ...inputLimits, defaults: { ...inputLimits.defaults, ID: { maxLength: 4, why: '' } } };
    expect(violation('query($id: ID!) { function(id: $id) { id } }', { id: 'abcde' }, tight)).toMatchObject({
      limit: 4,
    });
  });
});

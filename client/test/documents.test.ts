/**
 * What query, mutate and subscribe take (a string, a DocumentNode, a generated document), what
 * each sends, and where each kind of failure is reported: a mistake in the program before anything
 * is sent, never as UNAVAILABLE; UNAVAILABLE only when the gateway cannot be reached.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { createClient, NvcfError, ClustersDocument, CreateFunctionDocument } from '../src/index.js';

interface Sent {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** A gateway stand-in: records every request and answers with `answer`. */
function fakeGateway(answer: (body: Record<string, unknown>) => unknown = () => ({ data: { clusters: [] } })) {
  const sent: Sent[] = [];
  const fetchImpl: typeof fetch = (_input, init) => {
    const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown>;
    sent.push({ body, headers: init?.headers as Record<string, string> });
    return Promise.resolve(
      new Response(JSON.stringify(answer(body)), { headers: { 'content-type': 'application/json' } }),
    );
  };
  return { sent, client: createClient({ url: 'http://gateway.test/graphql', token: 'tok', fetch: fetchImpl }) };
}

/** The error a call ends with (it must end with one). */
async function failure(p: Promise<unknown> | AsyncGenerator<unknown>): Promise<unknown> {
  try {
    if (Symbol.asyncIterator in p) for await (const _ of p);
    else await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describe('the client takes any document', () => {
  it('a string is sent as its text, with no trusted-document id', async () => {
    const { sent, client } = fakeGateway();
    const text = '{ clusters { id } }';
    expect(await client.query(text)).toEqual({ clusters: [] });
    expect(sent.map((s) => s.body)).toEqual([{ query: text }]);
  });

  it('a string keeps its operation name and variables', async () => {
    const { sent, client } = fakeGateway(() => ({ data: { function: null } }));
    const text = 'query One($id: ID!) { function(id: $id) { id } }';
    await client.query(text, { id: 'f1' });
    expect(sent.map((s) => s.body)).toEqual([{ query: text, operationName: 'One', variables: { id: 'f1' } }]);
  });

  it('a graphql-js DocumentNode is sent as its printed text', async () => {
    const { sent, client } = fakeGateway();
    await client.query(parse('query Clusters { clusters { id } }'));
    expect(sent.map((s) => s.body)).toEqual([
      { query: 'query Clusters {\n  clusters {\n    id\n  }\n}', operationName: 'Clusters' },
    ]);
  });

  it('a generated document is sent by its trusted-document id', async () => {
    const { sent, client } = fakeGateway();
    await client.query(ClustersDocument);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({
      documentId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      operationName: 'Clusters',
    });
  });
});

describe('a mistake in the program is reported as one, before anything is sent', () => {
  const cases: [
    string,
    (c: ReturnType<typeof fakeGateway>['client']) => Promise<unknown> | AsyncGenerator<unknown>,
    string,
    RegExp,
  ][] = [
    [
      'an unparseable string',
      (c) => c.query('{ clusters { id }'),
      'GRAPHQL_PARSE_FAILED',
      /does not parse: Syntax Error/,
    ],
    ['an empty string', (c) => c.query('  '), 'BAD_USER_INPUT', /empty/],
    ['not a document', (c) => c.query(42 as never), 'BAD_USER_INPUT', /expected a GraphQL document.*got number/],
    [
      'an object without definitions',
      (c) => c.query({ kind: 'Document' } as never),
      'BAD_USER_INPUT',
      /expected a GraphQL document/,
    ],
    [
      'two operations in one call',
      (c) => c.query('query A { clusters { id } } query B { clusters { id } }'),
      'BAD_USER_INPUT',
      /2 operations/,
    ],
    ['variables that are a list', (c) => c.query('{ clusters { id } }', [1] as never), 'BAD_USER_INPUT', /not a list/],
    [
      'variables that are a string',
      (c) => c.query('{ clusters { id } }', 'x' as never),
      'BAD_USER_INPUT',
      /not string/,
    ],
    [
      'variables JSON cannot hold',
      (c) => c.query('{ clusters { id } }', { n: 1n }),
      'BAD_USER_INPUT',
      /cannot be sent as JSON/,
    ],
    [
      'a mutation through query() (it would be retried)',
      (c) => c.query(CreateFunctionDocument as never),
      'BAD_USER_INPUT',
      /mutation: run it with mutate\(\)/,
    ],
    [
      'a query through mutate()',
      (c) => c.mutate('{ clusters { id } }'),
      'BAD_USER_INPUT',
      /query: run it with query\(\)/,
    ],
    [
      'a query through subscribe()',
      (c) => c.subscribe('{ clusters { id } }'),
      'BAD_USER_INPUT',
      /query: run it with query\(\)/,
    ],
    [
      'a subscription through query()',
      (c) => c.query('subscription { instanceStatusChanged(functionId: "f") { cursor } }'),
      'BAD_USER_INPUT',
      /subscription: run it with subscribe\(\)/,
    ],
  ];
  it.each(cases)('%s', async (_name, call, code, message) => {
    const { sent, client } = fakeGateway();
    const err = await failure(call(client));
    expect(err).toBeInstanceOf(NvcfError);
    expect({ code: (err as NvcfError).code, message: (err as NvcfError).message }).toEqual({
      code,
      message: expect.stringMatching(message),
    });
    expect(sent).toEqual([]);
  });

  it("a token function's own error is thrown as it is", async () => {
    const broken = new Error('the token store is locked');
    let calls = 0;
    const client = createClient({
      url: 'http://gateway.test/graphql',
      token: () => Promise.reject(broken),
      fetch: () => {
        calls++;
        return Promise.reject(new Error('never called'));
      },
    });
    expect(await failure(client.query('{ clusters { id } }'))).toBe(broken);
    expect(await failure(client.subscribe('subscription { instanceStatusChanged(functionId: "f") { cursor } }'))).toBe(
      broken,
    );
    expect(calls).toBe(0);
  });

  it('a header that cannot be sent is BAD_USER_INPUT, not UNAVAILABLE', async () => {
    const client = createClient({
      url: 'http://gateway.test/graphql',
      token: 'line\nbreak',
      fetch: () => Promise.reject(new Error('never called')),
    });
    expect(await failure(client.query('{ clusters { id } }'))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/header/),
    });
  });

  it("the gateway's own refusal keeps its code (a validation error is not an outage)", async () => {
    const { client } = fakeGateway(() => ({
      errors: [
        { message: 'Cannot query field "nope" on type "Query".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
      ],
    }));
    expect(await failure(client.query('{ nope }'))).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });
});

describe('UNAVAILABLE is a gateway that cannot be reached, only', () => {
  it('a closed port', async () => {
    // a port that was just free: bound, then released
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = createClient({ url: `http://127.0.0.1:${port}/graphql`, token: 'tok', queryRetries: 0 });
    const err = await failure(client.query('{ clusters { id } }'));
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining(`cannot reach the gateway at http://127.0.0.1:${port}/graphql`),
    });
    expect(
      await failure(client.subscribe('subscription { instanceStatusChanged(functionId: "f") { cursor } }')),
    ).toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});

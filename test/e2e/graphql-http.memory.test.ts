/**
 * GraphQL over HTTP, by the book: the `graphql-http` package's server audit (the conformance suite
 * of the GraphQL-over-HTTP spec) against the gateway, the content types and statuses it chooses,
 * and an oversized body answered with a 413 the client can read.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditServer } from 'graphql-http';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { startGateway } from '@nvcf/gateway';
import { startSystem, type System } from '@nvcf/local';
import { fast } from './suites/system.js';

type Body = { data?: unknown; errors?: { message: string; extensions?: { code?: string; limit?: number } }[] };

const auth = { authorization: 'Bearer dev-token-a' };
const JSON_TYPE = { 'content-type': 'application/json' };
const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const CREATE =
  'mutation { createFunction(input: {name: "by-the-book", helm: {chart: "oci://r/c-1.0.0.tgz", serviceName: "s"}}) { id } }';

/**
 * Audits the gateway may fail, each with the spec's reason (id → reason). Empty: every audit,
 * warnings and notices included, passes; an entry here that passes fails the test, so the list
 * cannot go stale.
 */
const exceptions: Record<string, string> = {};

/** The bytes a raw client reads until the server closes, and whether every byte it sent was accepted. */
function rawPost(port: number, headers: string, body: Buffer, chunk = 64 * 1024) {
  return new Promise<{ response: string; sent: number; writeError?: string }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let sent = 0;
    let writeError: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (response += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    socket.on('close', () => resolve({ response, sent, writeError }));
    // each chunk waits for the previous one to be flushed: `sent` stops where the connection broke
    const send = async () => {
      socket.write(headers);
      for (let o = 0; o < body.length && !socket.destroyed; o += chunk) {
        const part = body.subarray(o, o + chunk);
        const ok = await new Promise<boolean>((r) => socket.write(part, (err) => r(!err)));
        if (!ok) break;
        sent += part.length;
      }
    };
    socket.on('connect', () => void send());
  });
}

describe('GraphQL over HTTP', () => {
  let system: System;
  let graphql: string;
  beforeAll(async () => {
    system = await startSystem(fast);
    graphql = `${system.gateway.url}/graphql`;
  });
  afterAll(async () => {
    await system?.dispose();
  });

  const functionNames = async () => {
    const res = await fetch(graphql, {
      method: 'POST',
      headers: { ...auth, ...JSON_TYPE },
      body: JSON.stringify({ query: '{ functions { name } }' }),
    });
    return ((await res.json()) as { data: { functions: { name: string }[] } }).data.functions.map((f) => f.name);
  };

  it("passes graphql-http's server audit: every audit ok, warnings and notices included", async () => {
    const results = await auditServer({
      url: graphql,
      fetchFn: (input: RequestInfo | URL, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', auth.authorization);
        return fetch(input, { ...init, headers });
      },
    });
    expect(results.length).toBeGreaterThanOrEqual(61);
    const failed = results.flatMap((r) => (r.status === 'ok' ? [] : [`${r.status} ${r.id} ${r.name}: ${r.reason}`]));
    const unexpected = failed.filter((f) => !(f.split(' ')[1] in exceptions));
    expect(unexpected).toEqual([]);
    expect(failed.map((f) => f.split(' ')[1]).sort()).toEqual(Object.keys(exceptions).sort());
  });

  describe('content types', () => {
    it.each([
      ['no Content-Type', {}],
      ['text/plain (a CORS simple request)', { 'content-type': 'text/plain' }],
      ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
      ['JSON in another charset', { 'content-type': 'application/json; charset=iso-8859-1' }],
    ])('a POST with %s is refused with 415 and runs nothing', async (_name, headers: Record<string, string>) => {
      const res = await fetch(graphql, {
        method: 'POST',
        headers: { ...auth, ...headers },
        body: JSON.stringify({ query: CREATE }),
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('accept-post')).toBe(`application/json, ${GRAPHQL_RESPONSE}`);
      const body = (await res.json()) as Body;
      expect(body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(body.errors![0].message).toMatch(/application\/json/);
      expect(await functionNames()).not.toContain('by-the-book');
    });

    it.each([['application/json; charset=utf-8'], [GRAPHQL_RESPONSE]])('a POST with %s runs', async (type) => {
      const res = await fetch(graphql, {
        method: 'POST',
        headers: { ...auth, 'content-type': type },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    });
  });

  describe('statuses chosen by Accept', () => {
    const requestErrors: [string, unknown, string][] = [
      ['a parse failure', { query: '{ clusters {' }, 'GRAPHQL_PARSE_FAILED'],
      ['a validation failure', { query: '{ clusters { nope } }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [
        'an unknown operationName',
        { query: 'query A { __typename }', operationName: 'B' },
        'GRAPHQL_VALIDATION_FAILED',
      ],
      [
        'a variable of the wrong type',
        { query: 'query($id: ID!) { function(id: $id) { id } }', variables: { id: { not: 'an id' } } },
        'BAD_USER_INPUT',
      ],
    ];
    const post = (body: unknown, accept?: string) =>
      fetch(graphql, {
        method: 'POST',
        headers: { ...auth, ...JSON_TYPE, ...(accept ? { accept } : {}) },
        body: JSON.stringify(body),
      });

    it.each(requestErrors)('%s: 200 in application/json, the only type accepted', async (_n, body, code) => {
      for (const accept of ['application/json', undefined, '*/*']) {
        const res = await post(body, accept);
        expect({ accept, status: res.status, type: res.headers.get('content-type') }).toEqual({
          accept,
          status: 200,
          type: 'application/json; charset=utf-8',
        });
        expect(((await res.json()) as Body).errors![0].extensions).toMatchObject({ code });
      }
    });

    it.each(requestErrors)('%s: 400 in application/graphql-response+json, without data', async (_n, body, code) => {
      for (const accept of [GRAPHQL_RESPONSE, `${GRAPHQL_RESPONSE}, application/json`]) {
        const res = await post(body, accept);
        expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
          status: 400,
          type: `${GRAPHQL_RESPONSE}; charset=utf-8`,
        });
        const answer = (await res.json()) as Body;
        expect(answer.errors![0].extensions).toMatchObject({ code });
        expect(answer).not.toHaveProperty('data');
      }
    });

    it('a request that is not a GraphQL request (no query) stays 400 whatever the client accepts', async () => {
      const res = await post({ variables: {} }, 'application/json');
      expect(res.status).toBe(400);
      expect(((await res.json()) as Body).errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    });

    it.each(['"x"', '1', 'true', '[]'])('extensions %s: 400 BAD_USER_INPUT', async (extensions) => {
      const res = await fetch(graphql, {
        method: 'POST',
        headers: { ...auth, ...JSON_TYPE },
        body: `{"query":"{ __typename }","extensions":${extensions}}`,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Body).errors![0]).toMatchObject({
        message: expect.stringContaining('`extensions`'),
        extensions: { code: 'BAD_USER_INPUT', field: 'extensions' },
      });
    });

    it('a mutation over GET: 405 with Allow: POST, and nothing is created', async () => {
      const res = await fetch(`${graphql}?query=${encodeURIComponent(CREATE)}`, { headers: auth });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as Body).errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(await functionNames()).not.toContain('by-the-book');
      const query = await fetch(`${graphql}?query=${encodeURIComponent('{ __typename }')}`, { headers: auth });
      expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
    });
  });

  describe('a body over the limit gets a 413 the client reads', () => {
    const big = Buffer.alloc(10_000_000, 'x');
    const expect413 = async (res: Response) => {
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(((await res.json()) as Body).errors![0]).toMatchObject({
        extensions: { code: 'LIMIT_EXCEEDED', limit: 1024 * 1024 },
      });
    };

    it('fetch, a declared 10 MB body (Content-Length)', async () => {
      await expect413(await fetch(graphql, { method: 'POST', headers: { ...auth, ...JSON_TYPE }, body: big }));
    });

    it('fetch, a streamed 10 MB body (chunked)', async () => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (let o = 0; o < big.length; o += 64 * 1024) c.enqueue(big.subarray(o, o + 64 * 1024));
          c.close();
        },
      });
      await expect413(
        await fetch(graphql, {
          method: 'POST',
          headers: { ...auth, ...JSON_TYPE },
          body,
          duplex: 'half',
        } as RequestInit & { duplex: 'half' }),
      );
    });

    it('the connection stays open until the client has sent everything, then closes', async () => {
      const { port } = new URL(system.gateway.url);
      const head = `POST /graphql HTTP/1.1\r\nhost: x\r\nauthorization: ${auth.authorization}\r\ncontent-type: application/json\r\ncontent-length: ${big.length}\r\n\r\n`;
      const r = await rawPost(Number(port), head, big);
      expect({ sent: r.sent, writeError: r.writeError }).toEqual({ sent: big.length, writeError: undefined });
      expect(r.response).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.response).toMatch(/\r\nconnection: close\r\n/i);
      expect(r.response).toContain('"LIMIT_EXCEEDED"');
    });

    it('past the discard bound the connection is cut, after the 413 was sent', async () => {
      await using gw = await startGateway({
        subgraphs: system.subgraphs,
        verify: staticTokens(DEV_TOKENS),
        secret: system.secret,
        cursorSecret: system.secret,
        bus: system.backends.bus,
        limits: { maxBodyBytes: 1024, maxDiscardBytes: 256 * 1024 },
      });
      const { port } = new URL(gw.url);
      const head = `POST /graphql HTTP/1.1\r\nhost: x\r\nauthorization: ${auth.authorization}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      const r = await rawPost(
        Number(port),
        head,
        Buffer.concat(Array.from({ length: 160 }, () => framed)),
        framed.length,
      );
      expect(r.sent).toBeLessThan(framed.length * 160);
      expect(r.response).toMatch(/^HTTP\/1\.1 413 /);
    });

    const curl = ['/usr/bin/curl', '/usr/local/bin/curl'].find((p) => existsSync(p));
    (curl ? it : it.skip)('curl, a 10 MB body from a file', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'nvcf-413-'));
      try {
        await writeFile(join(dir, 'body.json'), big);
        const { stdout } = await promisify(execFile)(curl!, [
          '-sS',
          '-H',
          `authorization: ${auth.authorization}`,
          '-H',
          'content-type: application/json',
          '--data-binary',
          `@${join(dir, 'body.json')}`,
          '-w',
          '\n%{http_code}',
          graphql,
        ]);
        const [body, status] = stdout.split('\n');
        expect(status).toBe('413');
        expect((JSON.parse(body) as Body).errors![0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

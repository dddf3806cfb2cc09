import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { signTenant, encodeCursor, TENANT_HEADER, staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { startGateway, defaultLimits } from '@nvcf/gateway';
import type { System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import { httpClient, ok, deployedHelm, gauge, withoutStall, rawWs } from '@nvcf/test';
import { FunctionsDocument, GpuSpecificationDocument } from '@nvcf/client';
import { fast, type MakeSystem } from './system.js';

type Body = {
  errors?: { message: string; path?: unknown[]; locations?: unknown[]; extensions?: Record<string, unknown> }[];
  data?: unknown;
};
interface Case {
  name: string;
  body: string;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  status: number;
  code: string;
  message?: string | RegExp;
}

const STATUS = 'subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state instance { id } } }';
const bomb = (
  levels: number,
  root = 'subscription { instanceStatusChanged(functionId: "f") { instance { ...F' + (levels - 1) + ' } } }',
) => {
  let frags = 'fragment F0 on Instance { id }\n';
  for (let i = 1; i < levels; i++) frags += `fragment F${i} on Instance { ...F${i - 1} ...F${i - 1} }\n`;
  return `${root}\n${frags}`;
};
const cycle =
  'subscription { instanceStatusChanged(functionId: "f") { instance { ...A } } } fragment A on Instance { ...B } fragment B on Instance { ...A }';
const queryCycle = '{ functions { ...A } } fragment A on Function { ...B } fragment B on Function { ...A }';
const nested = (levels: number) => `{${'"a":{'.repeat(levels)}"b":1${'}'.repeat(levels)}}`;
const deep = (levels: number) =>
  `{ ${'functions { versions { function { '.repeat(Math.ceil(levels / 3))}id${' } } }'.repeat(Math.ceil(levels / 3))} }`;
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: clusters { id }`).join(' ')} }`;
const directives = (n: number) =>
  `{ clusters { ${Array.from({ length: n }, (_, i) => `f${i}: id @include(if: true)`).join(' ')} } }`;
const tokens = (n: number) => `{ clusters { ${'id '.repeat(n)}} }`;
const json = (o: unknown) => JSON.stringify(o);

/**
 * The bad-input corpus: every request below is refused with its registry code before it costs
 * anything, stores nothing, and never holds up the gateway: a concurrent probe of /health
 * answers within 200 ms while it runs (on one of three attempts: `withoutStall`).
 */
export function abuseSuite(name: string, make: MakeSystem) {
  describe(`${name}: abuse, limits and bad input`, () => {
    let system: System;
    let d: Awaited<ReturnType<typeof deployedHelm>>;
    const a = () => httpClient(system.url, 'dev-token-a');
    const b = () => httpClient(system.url, 'dev-token-b');
    // what each tenant has: a refused request must leave it exactly as it was
    const stored = async () => {
      const read = async (c: ReturnType<typeof a>) =>
        ok(await c(FunctionsDocument, {}))
          .functions.map((f) => `${f.id}:${f.versions.map((v) => v.id).join(',')}`)
          .sort();
      const spec = ok(await a()(GpuSpecificationDocument, { id: d.specId })).gpuSpecification!;
      return { a: await read(a()), b: await read(b()), revision: spec.latestRevision!.id, min: spec.minInstances };
    };
    let before: Awaited<ReturnType<typeof stored>>;

    beforeAll(async () => {
      // rate limits high enough for the corpus itself; their own cases use a system of their own
      system = await make({ ...fast, gatewayLimits: { operationsPerSecond: 10_000, operationsBurst: 10_000 } });
      d = await deployedHelm(a(), { minInstances: 1, maxInstances: 2 });
      before = await stored();
    });
    afterAll(async () => {
      for (const url of [system.gateway.url, ...Object.values(system.services)])
        expect((await fetch(`${url}/health`)).status).toBe(200);
      await system?.dispose();
    });

    /** Sends one case while probing health; checks status, code, message, the probe and the store. */
    async function refused(c: Case) {
      const { result, probes, stalled, failed } = await withoutStall(system.gateway.url, async () => {
        const res = await fetch(`${system.gateway.url}${c.path ?? '/graphql'}`, {
          method: c.method ?? 'POST',
          // as @nvcf/client and the IDE send it: request errors are 4xx in this type (a client that
          // takes JSON only gets them with 200, as GraphQL over HTTP says: graphql-http.memory.test.ts)
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
            ...c.headers,
          },
          body: c.method === 'GET' ? undefined : c.body,
        });
        return { status: res.status, headers: res.headers, body: (await res.json().catch(() => ({}))) as Body };
      });
      expect({ status: result.status, code: result.body.errors?.[0]?.extensions?.code }).toEqual({
        status: c.status,
        code: c.code,
      });
      if (c.message) expect(result.body.errors![0].message).toMatch(c.message);
      expect(JSON.stringify(result.body)).not.toMatch(/originalError|stacktrace| {4}at /);
      expect({ probes: probes > 0, failed, stalled }).toEqual({ probes: true, failed: 0, stalled: false });
      expect(await stored()).toEqual(before);
      return result;
    }

    const payloads: [string, string][] = [
      ['a valid query', json({ query: '{ functions { id } }' })],
      [
        'a mutation',
        json({
          query:
            'mutation { createFunction(input: {name: "x", helm: {chart: "oci://r/c-1.0.0.tgz", serviceName: "s"}}) { id } }',
        }),
      ],
      ['a 20-level fragment bomb', json({ query: bomb(20) })],
      ['a fragment cycle', json({ query: cycle })],
      ['a 900 KB document', json({ query: `{ ${'a '.repeat(450_000)}}` })],
      ['a body that is not JSON', '{"query": '],
    ];
    const badCredentials: [string, Record<string, string>][] = [
      ['no Authorization header', {}],
      ['an unknown bearer token', { authorization: 'Bearer not-a-token' }],
      ['a Basic credential', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['a forged JWT', { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJuY2FJZCI6Im5jYS1hIn0.' }],
      ['a tenant assertion instead of a token', { [TENANT_HEADER]: 'placeholder' }],
    ];
    const unauthenticated: Case[] = [];
    for (const [who, headers] of badCredentials) {
      for (const [what, body] of payloads) {
        for (const sse of [false, true]) {
          unauthenticated.push({
            name: `${sse ? 'SSE' : 'HTTP'}: ${what} with ${who}`,
            body,
            headers: { ...headers, ...(sse ? { accept: 'text/event-stream' } : {}) },
            status: 401,
            code: 'UNAUTHENTICATED',
            message: /bearer/i,
          });
        }
      }
    }
    it.each(unauthenticated.map((c) => [c.name, c] as const))(
      '%s: 401 UNAUTHENTICATED before anything is read',
      async (_n, c) => {
        if (c.headers?.[TENANT_HEADER]) c.headers[TENANT_HEADER] = signTenant(system.secret, 'nca-a', 'nvcf');
        await refused(c);
      },
    );

    it.each([
      [
        'GET with a query and no token',
        { method: 'GET', path: `/graphql?query=${encodeURIComponent('{ functions { id } }')}` },
      ],
      [
        'GET with a fragment bomb and no token',
        { method: 'GET', path: `/graphql?query=${encodeURIComponent(bomb(12, '{ instance(id: "x") { ...F11 } }'))}` },
      ],
    ])('%s: 401', async (_n, c) => {
      await refused({ name: _n, body: '', ...c, status: 401, code: 'UNAUTHENTICATED' });
    });

    const auth = { authorization: 'Bearer dev-token-a' };
    const sse = { ...auth, accept: 'text/event-stream' };
    const limits: Case[] = [
      {
        name: 'a body over 1 MiB',
        body: json({ query: '{ clusters { id } }', variables: { x: 'a'.repeat(1_100_000) } }),
        headers: auth,
        status: 413,
        code: 'LIMIT_EXCEEDED',
        message: /1048576 bytes/,
      },
      {
        name: 'an SSE body over 1 MiB',
        body: json({ query: STATUS, variables: { f: 'a'.repeat(1_100_000) } }),
        headers: sse,
        status: 413,
        code: 'LIMIT_EXCEEDED',
      },
      {
        name: 'a document over 32 KiB',
        body: json({ query: `{ clusters { id } } ${'#'.repeat(40_000)}` }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /characters/,
      },
      {
        name: 'a document over 1000 tokens',
        body: json({ query: tokens(1200) }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /1000 tokens/,
      },
      {
        name: 'an SSE document over 1000 tokens',
        body: json({ query: `subscription { instanceStatusChanged(functionId: "f") { ${'cursor '.repeat(1200)}} }` }),
        headers: sse,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /tokens/,
      },
      {
        name: 'a selection 15 levels deep',
        body: json({ query: deep(15) }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /levels deep; at most 12/,
      },
      {
        name: 'a selection past the planner recursion limit',
        body: json({ query: deep(150) }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /levels deep/,
      },
      {
        name: '31 aliases',
        body: json({ query: aliases(31) }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /31 aliased fields/,
      },
      {
        name: 'aliases multiplied through fragments',
        body: json({
          query:
            '{ ...A } fragment A on Query { x: clusters { ...B } } fragment B on Cluster { a: id b: id c: id d: id e: id f: id g: id h: id i: id j: id k: id l: id m: id n: id o: id p: id q: id r: id s: id t: id u: id v: id w: id x: id y: id z: id aa: id ab: id ac: id ad: id }',
        }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /aliased/,
      },
      {
        name: '21 directives',
        body: json({ query: directives(21) }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /directives/,
      },
      {
        name: 'a 20-level fragment bomb (query)',
        body: json({ query: bomb(20, '{ instance(id: "x") { ...F19 } }') }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /cost/,
      },
      {
        name: 'a 30-level fragment bomb (SSE)',
        body: json({ query: bomb(30) }),
        headers: sse,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /cost/,
      },
      {
        name: 'a 20-level fragment bomb (SSE)',
        body: json({ query: bomb(20) }),
        headers: sse,
        status: 400,
        code: 'LIMIT_EXCEEDED',
      },
      {
        name: 'instances(ids:) with 1000 ids under 10 aliases',
        body: json({
          query: `query($ids: [ID!]!) { ${Array.from({ length: 10 }, (_, i) => `a${i}: instances(ids: $ids) { id state cluster { id name } }`).join(' ')} }`,
          variables: { ids: Array.from({ length: 1000 }, (_, i) => `i${i}`) },
        }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /cost/,
      },
      {
        name: 'a fragment cycle (query)',
        body: json({ query: queryCycle }),
        headers: auth,
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /cycles/,
      },
      {
        name: 'a fragment cycle (SSE)',
        body: json({ query: cycle }),
        headers: sse,
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /A → B → A/,
      },
      {
        name: 'a variable nested 100 000 levels',
        body: `{"query": "query($id: ID!) { function(id: $id) { id } }", "variables": {"id": ${nested(100_000)}}}`,
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /nested more than 64 levels/,
      },
      {
        name: 'a configuration nested 10 000 levels',
        body: `{"query": "mutation($id: ID!, $c: JSON) { updateGpuSpecification(id: $id, input: {revision: {configuration: $c}}) { id } }", "variables": {"id": "SPEC", "c": ${nested(10_000)}}}`,
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /nested/,
      },
      {
        name: 'a literal nested 200 levels',
        body: json({
          query: `mutation { updateGpuSpecification(id: "SPEC", input: {revision: {configuration: ${'{a: '.repeat(200)}1${'}'.repeat(200)}}}) { id } }`,
        }),
        headers: auth,
        status: 400,
        code: 'LIMIT_EXCEEDED',
        message: /nested 2\d\d levels/,
      },
    ];
    it.each(limits.map((c) => [c.name, c] as const))('%s is refused up front', async (_n, c) => {
      await refused({ ...c, body: c.body.replaceAll('SPEC', d.specId) });
    });

    it('a declared Content-Length over the limit is refused before the body is read', async () => {
      const { result, stalled } = await withoutStall(system.gateway.url, async () => {
        const { request } = await import('node:http');
        const u = new URL(system.url);
        const req = request({
          host: u.hostname,
          port: u.port,
          path: '/graphql',
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) },
        });
        req.write('{"query":"');
        const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
        let text = '';
        for await (const chunk of res) text += chunk;
        req.destroy();
        return { status: res.statusCode, body: JSON.parse(text) as Body };
      });
      expect([result.status, result.body.errors?.[0]?.extensions?.code, stalled]).toEqual([
        413,
        'LIMIT_EXCEEDED',
        false,
      ]);
    });

    const var_ = (query: string, variables: unknown, extra: Record<string, unknown> = {}) =>
      json({ query, variables, ...extra });
    const create = 'mutation($i: CreateFunctionInput!) { createFunction(input: $i) { id } }';
    const update =
      'mutation($id: ID!, $i: UpdateGpuSpecificationInput!) { updateGpuSpecification(id: $id, input: $i) { id } }';
    const invalid: Case[] = [
      {
        name: 'an ID given as an object',
        body: var_('query($id: ID!) { function(id: $id) { id } }', { id: { a: 1 } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$id/,
      },
      {
        name: 'an ID given as a list',
        body: var_('query($id: ID!) { function(id: $id) { id } }', { id: [1] }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$id/,
      },
      {
        name: 'a missing required variable',
        body: var_('query($id: ID!) { function(id: $id) { id } }', {}),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$id/,
      },
      {
        name: 'null for a non-null variable',
        body: var_('query($id: ID!) { function(id: $id) { id } }', { id: null }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$id/,
      },
      {
        name: 'an Int given as a string',
        body: var_(create, {
          i: { name: 'x', inferencePort: '8000', helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$i.*inferencePort|Int/,
      },
      {
        name: 'an Int past 32 bits',
        body: var_(create, {
          i: { name: 'x', inferencePort: 2 ** 40, helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$i/,
      },
      {
        name: 'a Boolean given as a string',
        body: var_('mutation($v: ID!, $g: Boolean) { undeployFunctionVersion(versionId: $v, graceful: $g) { id } }', {
          v: 'x',
          g: 'yes',
        }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$g/,
      },
      {
        name: 'an unknown input field',
        body: var_(create, { i: { name: 'x', bogus: 1, helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /bogus/,
      },
      {
        name: 'a missing required input field',
        body: var_(create, { i: { helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /name/,
      },
      {
        name: 'a non-updatable field (gpu) in the update input',
        body: var_(update, { id: 'SPEC', i: { gpu: 'H100' } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /gpu/,
      },
      {
        name: 'a non-updatable field (instanceType) in the update input',
        body: var_(update, { id: 'SPEC', i: { instanceType: 'x', minInstances: 1 } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /instanceType/,
      },
      {
        name: 'a nested unknown field in the workload',
        body: var_(create, { i: { name: 'x', helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's', values: {} } } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /values/,
      },
      {
        name: 'a list where an object belongs',
        body: var_(create, { i: [{ name: 'x' }] }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /\$i/,
      },
      {
        name: 'an unknown enum-free scalar type mismatch (String as number)',
        body: var_(create, { i: { name: 42, helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } } }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /name|String/,
      },
      {
        name: 'variables as an array',
        body: json({ query: '{ functions { id } }', variables: [1] }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /variables/,
      },
      {
        name: 'variables as a string',
        body: json({ query: '{ functions { id } }', variables: 'x' }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /variables/,
      },
      {
        name: 'operationName as a number',
        body: json({ query: '{ functions { id } }', operationName: 5 }),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /operationName/,
      },
      {
        name: 'an unknown operationName',
        body: json({ query: 'query A { functions { id } }', operationName: 'B' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /no operation named "B"/,
      },
      {
        name: 'two operations and no operationName',
        body: json({ query: 'query A { functions { id } } query B { clusters { id } }' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /operationName/,
      },
      { name: 'query as a number', body: json({ query: 5 }), status: 400, code: 'BAD_USER_INPUT', message: /query/ },
      { name: 'query missing', body: json({ variables: {} }), status: 400, code: 'BAD_USER_INPUT', message: /query/ },
      { name: 'an empty query', body: json({ query: '   ' }), status: 400, code: 'BAD_USER_INPUT', message: /query/ },
      {
        name: 'a syntax error',
        body: json({ query: '{ functions { id }' }),
        status: 400,
        code: 'GRAPHQL_PARSE_FAILED',
        message: /Syntax Error/,
      },
      {
        name: 'an unknown field',
        body: json({ query: '{ nope }' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /nope/,
      },
      {
        name: 'an unknown argument',
        body: json({ query: '{ functions(first: 1) { id } }' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /first/,
      },
      {
        name: 'a missing required argument',
        body: json({ query: '{ function { id } }' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /id/,
      },
      {
        name: 'an undeclared variable',
        body: json({ query: '{ function(id: $x) { id } }' }),
        status: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: /\$x/,
      },
      {
        name: 'a subscription without a filter',
        body: json({ query: 'subscription { instanceStatusChanged { cursor } }' }),
        headers: sse,
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /at least one of/,
      },
      {
        name: 'a forged resume cursor',
        body: json({
          query: 'subscription { instanceStatusChanged(functionId: "f", after: "v1.1.forged") { cursor } }',
        }),
        headers: sse,
        status: 400,
        code: 'CURSOR_INVALID',
      },
      {
        name: 'a batch (array body)',
        body: json([{ query: '{ functions { id } }' }]),
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /batches/,
      },
      { name: 'a body that is not JSON', body: '{"query": ', status: 400, code: 'BAD_USER_INPUT', message: /not JSON/ },
      {
        name: 'a JSON body that is a string',
        body: '"{ functions { id } }"',
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /one JSON object/,
      },
      {
        name: 'a method other than GET and POST',
        body: '',
        method: 'PUT',
        status: 405,
        code: 'BAD_USER_INPUT',
        message: /POST/,
      },
      {
        name: 'GET with variables that are not JSON',
        body: '',
        method: 'GET',
        path: `/graphql?query=${encodeURIComponent('query($id: ID!) { function(id: $id) { id } }')}&variables=%7Bnope`,
        status: 400,
        code: 'BAD_USER_INPUT',
        message: /variables/,
      },
      {
        name: 'a status subscription over plain POST',
        body: json({ query: STATUS, variables: { f: 'x' } }),
        status: 406,
        code: 'BAD_USER_INPUT',
        message: /text\/event-stream/,
      },
    ];
    it.each(invalid.map((c) => [c.name, c] as const))(
      '%s: its registry code, no stack, nothing stored',
      async (_n, c) => {
        await refused({ ...c, headers: c.headers ?? auth, body: c.body.replaceAll('SPEC', d.specId) });
      },
    );

    it('unknown routes and the public metrics path answer 404; metrics live on their own loopback listener', async () => {
      for (const path of ['/metrics', '/internal/rpc/terminate', '/graphiql', '/']) {
        const r = await fetch(`${system.gateway.url}${path}`);
        expect([path, r.status]).toEqual([path, 404]);
      }
      expect(new URL(system.gateway.metricsUrl).hostname).toBe('127.0.0.1');
      const text = await (await fetch(`${system.gateway.metricsUrl}/metrics`)).text();
      expect(text).toContain('nvcf_gateway_requests_refused_total{code="UNAUTHENTICATED"}');
    });

    it.each(['nvcf', 'icms', 'nvca-status', 'nvct'] as const)(
      'the %s subgraph refuses assertions minted for another audience, expired or absent',
      async (target) => {
        const others = ['nvcf', 'icms', 'nvca-status', 'nvct', 'rpc:icms'].filter((x) => x !== target);
        const cases: Record<string, string>[] = [
          {},
          ...others.map((aud) => ({ [TENANT_HEADER]: signTenant(system.secret, 'nca-a', aud) })),
          { [TENANT_HEADER]: signTenant(system.secret, 'nca-a', target, Date.now() - 60_000) },
        ];
        for (const headers of cases) {
          const r = await fetch(system.subgraphs[target], {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: json({ query: '{ __typename }' }),
          });
          expect(r.status).toBe(401);
        }
        const fresh = await fetch(system.subgraphs[target], {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TENANT_HEADER]: signTenant(system.secret, 'nca-a', target) },
          body: json({ query: '{ __typename }' }),
        });
        expect(fresh.status).toBe(200);
      },
    );

    describe('WebSocket', () => {
      it.each([
        ['no payload', undefined],
        ['an unknown token', { authorization: 'Bearer nope' }],
        ['a Basic credential', { authorization: 'Basic YTpi' }],
        ['a token under another key', { token: 'dev-token-a' }],
      ])('connection_init with %s closes 4401 and never reads the subscribe that follows', async (_n, payload) => {
        const { result, stalled } = await withoutStall(system.gateway.url, async () => {
          const ws = await rawWs(system.gateway.wsUrl);
          ws.send({ type: 'connection_init', payload });
          ws.send({ id: '1', type: 'subscribe', payload: { query: bomb(30) } });
          return ws.closed;
        });
        expect(result.code).toBe(4401);
        expect(stalled).toBe(false);
      });

      it('a subscribe before connection_init closes the socket 4401', async () => {
        const ws = await rawWs(system.gateway.wsUrl);
        ws.send({ id: '1', type: 'subscribe', payload: { query: cycle } });
        expect((await ws.closed).code).toBe(4401);
      });

      it.each([
        ['a fragment cycle', { query: cycle }, 'GRAPHQL_VALIDATION_FAILED'],
        ['a 30-level fragment bomb', { query: bomb(30) }, 'LIMIT_EXCEEDED'],
        ['a document over 1000 tokens', { query: tokens(1200) }, 'LIMIT_EXCEEDED'],
        ['31 aliases', { query: aliases(31) }, 'LIMIT_EXCEEDED'],
        ['a syntax error', { query: 'subscription {' }, 'GRAPHQL_PARSE_FAILED'],
        ['an unknown field', { query: 'subscription { nope }' }, 'GRAPHQL_VALIDATION_FAILED'],
        ['a variable of the wrong type', { query: STATUS, variables: { f: { a: 1 } } }, 'BAD_USER_INPUT'],
        [
          'a variable nested 1000 levels',
          { query: STATUS, variables: JSON.parse(`{"f": ${nested(1000)}}`) },
          'LIMIT_EXCEEDED',
        ],
        ['no filter', { query: 'subscription { instanceStatusChanged { cursor } }' }, 'BAD_USER_INPUT'],
      ])(
        '%s gets an error for its id; the connection and its other subscriptions live on',
        async (_n, payload, code) => {
          const ws = await rawWs(system.gateway.wsUrl);
          try {
            ws.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
            await ws.next((m) => m.type === 'connection_ack');
            const { result, stalled } = await withoutStall(system.gateway.url, async (attempt) => {
              ws.send({ id: `bad${attempt}`, type: 'subscribe', payload });
              return ws.next((m) => m.id === `bad${attempt}`);
            });
            // refused before it runs: an `error` message; refused by the status stream as it opens: a `next` carrying errors
            expect(
              result.type === 'error' ||
                (result.type === 'next' && Array.isArray(result.payload.errors) && !result.payload.data),
            ).toBe(true);
            expect(JSON.stringify(result.payload)).toContain(code);
            expect(JSON.stringify(result.payload)).not.toMatch(/stacktrace|"http"/);
            expect(stalled).toBe(false);
            ws.send({ id: 'ok', type: 'subscribe', payload: { query: '{ clusters { id } }' } });
            expect(
              (await ws.next((m) => m.id === 'ok' && m.type === 'next')).payload.data.clusters.length,
            ).toBeGreaterThan(0);
          } finally {
            ws.close();
          }
        },
      );

      it('a message over 1 MiB closes that socket (1009) and no other', async () => {
        const other = await rawWs(system.gateway.wsUrl);
        other.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
        await other.next((m) => m.type === 'connection_ack');
        const ws = await rawWs(system.gateway.wsUrl);
        ws.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
        await ws.next((m) => m.type === 'connection_ack');
        ws.send({
          id: '1',
          type: 'subscribe',
          payload: { query: '{ clusters { id } }', variables: { x: 'a'.repeat(defaultLimits.maxBodyBytes + 10) } },
        });
        expect((await ws.closed).code).toBe(1009);
        other.send({ id: 'ok', type: 'subscribe', payload: { query: '{ clusters { id } }' } });
        expect((await other.next((m) => m.id === 'ok' && m.type === 'next')).type).toBe('next');
        other.close();
      });
    });

    describe('subscriptions are released, whatever the transport', () => {
      const openNow = () => gauge(system.gateway.metricsUrl, 'nvcf_status_subscriptions_open', { tenant: 'nca-a' });

      it('200 SSE subscriptions whose clients disconnect leave the open gauge at its baseline', async () => {
        const baseline = await openNow();
        const aborts = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const ctl = new AbortController();
            const res = await fetch(system.url, {
              method: 'POST',
              signal: ctl.signal,
              headers: { ...sse, 'content-type': 'application/json' },
              body: json({ query: STATUS, variables: { f: `leak-${i}` } }),
            });
            expect(res.status).toBe(200);
            return ctl;
          }),
        );
        await waitUntil(async () => (await openNow()) === baseline + 200, { what: '200 SSE subscriptions open' });
        for (const ctl of aborts) ctl.abort();
        await waitUntil(async () => (await openNow()) === baseline, { what: 'every SSE subscription released' });
      });

      it('WebSocket subscriptions: complete, and a dropped socket, both release', async () => {
        const baseline = await openNow();
        const ws = await rawWs(system.gateway.wsUrl);
        ws.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
        await ws.next((m) => m.type === 'connection_ack');
        for (let i = 0; i < 20; i++)
          ws.send({ id: `s${i}`, type: 'subscribe', payload: { query: STATUS, variables: { f: `ws-leak-${i}` } } });
        await waitUntil(async () => (await openNow()) === baseline + 20, { what: '20 WebSocket subscriptions open' });
        for (let i = 0; i < 10; i++) ws.send({ id: `s${i}`, type: 'complete' });
        await waitUntil(async () => (await openNow()) === baseline + 10, { what: 'completed subscriptions released' });
        ws.close();
        await waitUntil(async () => (await openNow()) === baseline, { what: 'a closed socket releases the rest' });
      });
    });

    describe('errors from behind the gateway keep their place and are not blamed on the client', () => {
      it('a subgraph registry error keeps its code, path and message', async () => {
        const r = await a()(GpuSpecificationDocument, { id: 'nope' });
        expect(r.data?.gpuSpecification ?? null).toBeNull();
        const res = await fetch(system.url, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: json({ query: 'mutation { rollbackGpuSpecification(id: "nope") { id } }' }),
        });
        const body = (await res.json()) as Body;
        expect(body.errors![0]).toMatchObject({
          path: ['rollbackGpuSpecification'],
          extensions: { code: 'NOT_FOUND' },
        });
        expect(body.errors![0].message).toContain('nope');
      });

      it('a subgraph that fails without a registry code: DOWNSTREAM_SERVICE_ERROR at its path, its message withheld', async () => {
        const fake = createServer((req, res) => {
          req.resume();
          req.on('end', () => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              json({
                data: null,
                errors: [
                  { message: 'db password is hunter2', path: ['clusters'], extensions: { code: 'SOMETHING_ODD' } },
                ],
              }),
            );
          });
        });
        fake.listen(0, '127.0.0.1');
        await once(fake, 'listening');
        const icms = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/graphql`;
        await using gw = await startGateway({
          subgraphs: { ...system.subgraphs, icms },
          verify: staticTokens(DEV_TOKENS),
          secret: system.secret,
          cursorSecret: system.secret,
          bus: system.backends.bus,
        });
        try {
          const res = await fetch(gw.graphqlUrl, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: json({ query: '{ clusters { id } }' }),
          });
          const body = (await res.json()) as Body;
          expect(body.errors![0]).toMatchObject({
            message: 'service "icms" failed to resolve this field; retry later (the cause is in its log)',
            path: ['clusters'],
            extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: 'icms' },
          });
          expect(JSON.stringify(body)).not.toContain('hunter2');
          fake.close();
          const down = (await (
            await fetch(gw.graphqlUrl, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: json({ query: '{ clusters { id } }' }),
            })
          ).json()) as Body;
          expect(down.errors![0]).toMatchObject({ extensions: { code: 'DOWNSTREAM_SERVICE_ERROR' } });
        } finally {
          fake.close();
        }
      });
    });
  });

  describe(`${name}: rates, tenant limits, introspection and time`, () => {
    const post = (url: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: json(body),
      });

    it("operations past a tenant's rate get 429 RATE_LIMITED with Retry-After; the other tenant is not slowed", async () => {
      // a token per 100 s: however slowly a loaded machine sends the eight, none is refilled meanwhile
      await using system = await make({ ...fast, gatewayLimits: { operationsPerSecond: 0.01, operationsBurst: 5 } });
      const rs = await Promise.all(
        Array.from({ length: 8 }, () => post(system.url, 'dev-token-a', { query: '{ clusters { id } }' })),
      );
      const statuses = rs.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const limited = rs.find((r) => r.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as Body).errors![0].extensions).toMatchObject({
        code: 'RATE_LIMITED',
        retryAfterSeconds: expect.any(Number),
      });
      expect((await post(system.url, 'dev-token-b', { query: '{ clusters { id } }' })).status).toBe(200);
    });

    it("subscription opens past a tenant's rate are refused with RATE_LIMITED (SSE and WebSocket)", async () => {
      // a token per 100 s, as above: the WebSocket open that follows finds the bucket still empty
      await using system = await make({
        ...fast,
        gatewayLimits: { subscriptionsPerSecond: 0.01, subscriptionsBurst: 3 },
      });
      const opens = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          post(
            system.url,
            'dev-token-a',
            { query: STATUS, variables: { f: `rate-${i}` } },
            { accept: 'text/event-stream' },
          ),
        ),
      );
      expect(opens.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
      for (const r of opens) await r.body?.cancel();
      const ws = await rawWs(system.gateway.wsUrl);
      ws.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
      await ws.next((m) => m.type === 'connection_ack');
      ws.send({ id: 'x', type: 'subscribe', payload: { query: STATUS, variables: { f: 'rate-ws' } } });
      const m = await ws.next((x) => x.id === 'x');
      expect([m.type, JSON.stringify(m.payload)]).toEqual(['error', expect.stringContaining('RATE_LIMITED')]);
      ws.close();
    });

    it('the per-tenant subscription limit holds when resumed subscriptions arrive together', async () => {
      await using system = await make({
        ...fast,
        statusLimits: { perTenant: 5 },
        gatewayLimits: { subscriptionsBurst: 1000 },
      });
      const after = encodeCursor(system.secret, 'nca-a', 0);
      const rs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(
            system.url,
            'dev-token-a',
            {
              query: 'subscription($f: ID, $a: String) { instanceStatusChanged(functionId: $f, after: $a) { cursor } }',
              variables: { f: `limit-${i}`, a: after },
            },
            { accept: 'text/event-stream' },
          ),
        ),
      );
      const ok200 = rs.filter((r) => r.status === 200);
      const refusedBodies = await Promise.all(
        rs.filter((r) => r.status !== 200).map(async (r) => ((await r.json()) as Body).errors![0].extensions!.code),
      );
      expect(ok200).toHaveLength(5);
      expect(new Set(refusedBodies)).toEqual(new Set(['LIMIT_EXCEEDED']));
      for (const r of ok200) await r.body?.cancel();
      await waitUntil(
        async () =>
          (await gauge(system.gateway.metricsUrl, 'nvcf_status_subscriptions_open', { tenant: 'nca-a' })) === 0,
        { what: 'all released' },
      );
    });

    it('with introspection restricted to a claim, other callers get FORBIDDEN and no schema hints', async () => {
      const verify = async (token: string) => {
        if (!(token in DEV_TOKENS)) throw new (await import('@nvcf/auth')).AuthError('unknown bearer token');
        return { tenant: DEV_TOKENS[token], introspection: token === 'dev-token-a' };
      };
      await using system = await make({ ...fast, verify, introspection: 'claim' });
      const schemaQuery = { query: '{ __schema { queryType { name } } }' };
      const typo = { query: '{ functionz { id } }' };
      const b = (await (await post(system.url, 'dev-token-b', schemaQuery)).json()) as Body;
      expect(b.errors![0].extensions!.code).toBe('FORBIDDEN');
      expect(
        (
          (await (
            await post(system.url, 'dev-token-b', {
              query: '{ clusters { id } } query X { __type(name: "Query") { name } }',
              operationName: 'X',
            })
          ).json()) as Body
        ).errors![0].extensions!.code,
      ).toBe('FORBIDDEN');
      const hintless = (await (await post(system.url, 'dev-token-b', typo)).json()) as Body;
      expect(hintless.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(hintless.errors![0].message).not.toContain('Did you mean');
      expect(((await (await post(system.url, 'dev-token-a', schemaQuery)).json()) as Body).data).toEqual({
        __schema: { queryType: { name: 'Query' } },
      });
      expect(((await (await post(system.url, 'dev-token-a', typo)).json()) as Body).errors![0].message).toContain(
        'Did you mean',
      );
      const anonymous = await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json(typo),
      });
      expect([anonymous.status, JSON.stringify(await anonymous.json()).includes('Did you mean')]).toEqual([401, false]);
    });

    it('a request that outlives the timeout gets 504 TIMEOUT, and health answers meanwhile', async () => {
      await using system = await make({ ...fast });
      const stuck = createServer(() => {
        /* never answers */
      });
      stuck.listen(0, '127.0.0.1');
      await once(stuck, 'listening');
      try {
        const icms = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}/graphql`;
        await using gw = await startGateway({
          subgraphs: { ...system.subgraphs, icms },
          verify: staticTokens(DEV_TOKENS),
          secret: system.secret,
          cursorSecret: system.secret,
          bus: system.backends.bus,
          limits: { requestTimeoutMs: 300 },
        });
        // warm (first plan, lazily loaded transports): the probe measures the timeout, not a cold start,
        // and on a loaded machine the cold start alone can outlast this gateway's short timeout
        await waitUntil(
          async () => (await post(gw.graphqlUrl, 'dev-token-a', { query: '{ functions { id } }' })).status === 200,
          {
            what: 'the gateway warm',
          },
        );
        const { result, stalled, probes } = await withoutStall(gw.url, async () => {
          const r = await post(gw.graphqlUrl, 'dev-token-a', { query: '{ clusters { id } }' });
          return { status: r.status, body: (await r.json()) as Body };
        });
        expect([result.status, result.body.errors![0].extensions!.code]).toEqual([504, 'TIMEOUT']);
        expect(probes).toBeGreaterThan(1);
        expect(stalled).toBe(false);
      } finally {
        stuck.closeAllConnections();
        stuck.close();
      }
    });
  });
}

import { readFileSync } from 'node:fs';
import { startSystem, type System } from '@nvcf/local';
import { defaultTrustedDocumentsFile } from '@nvcf/gateway';
import * as generated from '@nvcf/client';
import { ClustersDocument, FunctionsDocument, InstanceStatusChangedDocument } from '@nvcf/client';
import { httpClient, persistedClient, documentIdOf, ok, deployedHelm, gauge, rawWs } from '@nvcf/test';
import { fast } from './suites/system.js';

type Body = { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };

const manifest = JSON.parse(readFileSync(defaultTrustedDocumentsFile(), 'utf8')) as Record<string, string>;
const clustersId = documentIdOf(ClustersDocument);
const clustersHex = clustersId.replace(/^sha256:/, '');
const unknownId = `sha256:${'0'.repeat(64)}`;
const bomb = (levels: number) => {
  let doc = `query { functions { versions { function { ...F${levels - 1} } } } }\nfragment F0 on Function { id }\n`;
  for (let i = 1; i < levels; i++) doc += `fragment F${i} on Function { ...F${i - 1} ...F${i - 1} }\n`;
  return doc;
};

/**
 * Trusted documents at the gateway (docs/schema.md): a client sends the id of a document the
 * manifest holds (GraphQL-over-HTTP `documentId` or Apollo's `extensions.persistedQuery`), with
 * or without its text; with `require` nothing else reaches the parser.
 */
describe('trusted documents', () => {
  let required: System;
  let allowed: System;
  const post = async (s: System, body: unknown, token: string | null = 'dev-token-a') => {
    const res = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Body;
    return {
      status: res.status,
      code: json.errors?.[0]?.extensions?.code,
      message: json.errors?.[0]?.message,
      data: json.data,
    };
  };

  beforeAll(async () => {
    [required, allowed] = await Promise.all([startSystem({ ...fast, trustedDocuments: 'require' }), startSystem(fast)]);
  });
  afterAll(async () => {
    await Promise.all([required?.dispose(), allowed?.dispose()]);
  });

  it('the manifest holds every generated operation under the id its document node carries', () => {
    const documents = Object.entries(generated).filter(([name]) => name.endsWith('Document'));
    expect(documents.length).toBeGreaterThan(5);
    expect(documents.map(([, doc]) => documentIdOf(doc as never)).sort()).toEqual(Object.keys(manifest).sort());
    expect(manifest[clustersId]).toMatch(/^query Clusters\b/);
  });

  describe('require', () => {
    it("runs a known id alone (documentId, or Apollo's persistedQuery), or with its exact document", async () => {
      for (const body of [
        { documentId: clustersId },
        { extensions: { persistedQuery: { version: 1, sha256Hash: clustersHex } } },
        { query: manifest[clustersId], documentId: clustersId },
        { query: manifest[clustersId], extensions: { persistedQuery: { version: 1, sha256Hash: clustersHex } } },
      ]) {
        const r = await post(required, body);
        expect({ status: r.status, code: r.code, clusters: r.data?.clusters?.length }).toEqual({
          status: 200,
          code: undefined,
          clusters: required.clusters.length,
        });
      }
      const get = await fetch(`${required.url}?documentId=${encodeURIComponent(clustersId)}`, {
        headers: { authorization: 'Bearer dev-token-a' },
      });
      expect(((await get.json()) as Body).data?.clusters).toHaveLength(required.clusters.length);
    });

    it('a client that sends ids works unchanged: create, deploy, read and subscribe by id', async () => {
      const client = persistedClient(required.url, 'dev-token-a');
      const d = await deployedHelm(client, { minInstances: 1, maxInstances: 1 });
      expect(ok(await client(FunctionsDocument, {})).functions.map((f) => f.id)).toContain(d.functionId);
      // graphql-ws wants `query` a string: "" with the id
      const ws = await rawWs(required.gateway.wsUrl);
      try {
        ws.send({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } });
        await ws.next((m) => m.type === 'connection_ack');
        ws.send({
          id: '1',
          type: 'subscribe',
          payload: {
            query: '',
            documentId: documentIdOf(InstanceStatusChangedDocument),
            variables: { functionId: d.functionId, snapshot: true },
          },
        });
        const event = await ws.next((m) => m.id === '1' && m.type !== 'connection_ack');
        expect(event).toMatchObject({
          type: 'next',
          payload: { data: { instanceStatusChanged: { kind: 'SNAPSHOT', instance: { id: d.instanceIds[0] } } } },
        });
        ws.send({
          id: '2',
          type: 'subscribe',
          payload: { query: 'subscription { instanceStatusChanged(functionId: "f") { cursor } }' },
        });
        expect(await ws.next((m) => m.id === '2')).toMatchObject({
          type: 'error',
          payload: [{ extensions: { code: 'PERSISTED_QUERY_REQUIRED' } }],
        });
      } finally {
        ws.close();
      }
    });

    it('refuses ad-hoc documents with PERSISTED_QUERY_REQUIRED and unknown ids with PERSISTED_QUERY_NOT_FOUND', async () => {
      expect(await post(required, { query: manifest[clustersId] })).toMatchObject({
        status: 400,
        code: 'PERSISTED_QUERY_REQUIRED',
        message: expect.stringContaining('trusted documents only'),
      });
      expect((await httpClient(required.url, 'dev-token-a')(ClustersDocument, {})).errors?.[0]?.extensions?.code).toBe(
        'PERSISTED_QUERY_REQUIRED',
      );
      expect(await post(required, { documentId: unknownId })).toMatchObject({
        status: 400,
        code: 'PERSISTED_QUERY_NOT_FOUND',
      });
      expect(
        await post(required, {
          query: '{ clusters { id } }',
          extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } },
        }),
      ).toMatchObject({ code: 'PERSISTED_QUERY_NOT_FOUND' });
      // a known id cannot carry another document in
      expect(await post(required, { query: '{ functions { id ncaId } }', documentId: clustersId })).toMatchObject({
        code: 'BAD_USER_INPUT',
        message: expect.stringContaining('not the trusted document'),
      });
    });

    it('an ad-hoc document costs no parse: a 1000-level fragment bomb is PERSISTED_QUERY_REQUIRED, not LIMIT_EXCEEDED', async () => {
      const before = await gauge(required.gateway.metricsUrl, 'nvcf_gateway_requests_refused_total', {
        code: 'PERSISTED_QUERY_REQUIRED',
      });
      const started = performance.now();
      expect(await post(required, { query: bomb(1000) })).toMatchObject({
        status: 400,
        code: 'PERSISTED_QUERY_REQUIRED',
      });
      expect(performance.now() - started).toBeLessThan(1000);
      expect(
        await gauge(required.gateway.metricsUrl, 'nvcf_gateway_requests_refused_total', {
          code: 'PERSISTED_QUERY_REQUIRED',
        }),
      ).toBe(before + 1);
      // the same bomb where ad-hoc documents run meets the guard's limits instead
      expect(await post(allowed, { query: bomb(1000) })).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    });

    it('authenticates before any lookup', async () => {
      expect(await post(required, { documentId: clustersId }, null)).toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      expect(await post(required, { query: bomb(1000) }, 'nope')).toMatchObject({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
    });
  });

  describe('allow (the embedded default)', () => {
    it('runs ad-hoc documents (the IDE) and known ids alike', async () => {
      expect(ok(await httpClient(allowed.url, 'dev-token-a')(ClustersDocument, {})).clusters).toHaveLength(
        allowed.clusters.length,
      );
      expect(ok(await persistedClient(allowed.url, 'dev-token-a')(ClustersDocument, {})).clusters).toHaveLength(
        allowed.clusters.length,
      );
    });

    it("answers an unknown id alone with PERSISTED_QUERY_NOT_FOUND, and runs it once the document comes along (APQ's retry)", async () => {
      const apq = { version: 1, sha256Hash: '1'.repeat(64) };
      expect(await post(allowed, { extensions: { persistedQuery: apq } })).toMatchObject({
        code: 'PERSISTED_QUERY_NOT_FOUND',
      });
      const r = await post(allowed, { query: '{ clusters { id } }', extensions: { persistedQuery: apq } });
      expect(r.data?.clusters).toHaveLength(allowed.clusters.length);
    });

    it('publishes the deprecated-field counter on the metrics listener (no series while nothing deprecated is used)', async () => {
      const text = await (await fetch(`${allowed.gateway.metricsUrl}/metrics`)).text();
      expect(text).toContain('# TYPE nvcf_gateway_deprecated_field_uses_total counter');
    });
  });
});

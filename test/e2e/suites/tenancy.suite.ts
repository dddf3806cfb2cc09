import WebSocket from 'ws';
import {
  FunctionsDocument,
  FunctionVersionDocument,
  InstanceStatusChangedDocument,
  InstanceDocument,
  ClustersDocument,
  UndeployFunctionVersionDocument,
} from '@nvcf/client';
import { signTenant, TENANT_HEADER } from '@nvcf/auth';
import type { System } from '@nvcf/local';
import {
  httpClient,
  ok,
  errorCode,
  deployedHelm,
  wsSubscribe,
  sseSubscribe,
  watchSubscriptions,
  submit,
  waitRevision,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

/** Tenants never see each other; unauthenticated callers see nothing; subgraphs trust only the gateway. */
export function tenancySuite(name: string, make: MakeSystem) {
  describe(`${name}: tenancy and authentication`, () => {
    let system: System;
    let d: Awaited<ReturnType<typeof deployedHelm>>;
    const a = () => httpClient(system.url, 'dev-token-a');
    const b = () => httpClient(system.url, 'dev-token-b');
    beforeAll(async () => {
      system = await make(fast);
      d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
    });
    afterAll(async () => system?.dispose());

    it("queries return only the caller's objects", async () => {
      expect(ok(await a()(FunctionsDocument, {})).functions.map((f) => f.id)).toContain(d.functionId);
      expect(ok(await b()(FunctionsDocument, {})).functions.map((f) => f.id)).not.toContain(d.functionId);
      expect(ok(await b()(FunctionVersionDocument, { id: d.versionId })).functionVersion).toBeNull();
      expect(ok(await b()(InstanceDocument, { id: d.instanceIds[0] })).instance).toBeNull();
      expect(ok(await a()(InstanceDocument, { id: d.instanceIds[0] })).instance!.state).toBe('ACTIVE');
    });

    it("mutations on another tenant's objects are NOT_FOUND and change nothing", async () => {
      expect(errorCode(await b()(UndeployFunctionVersionDocument, { versionId: d.versionId }))).toBe('NOT_FOUND');
      expect(ok(await a()(FunctionVersionDocument, { id: d.versionId })).functionVersion!.status).toBe('ACTIVE');
    });

    // every query and mutation form, as tenant b, on tenant a's objects: nothing seen, nothing changed
    const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as {
        data?: Record<string, unknown> | null;
        errors?: { extensions?: { code?: string } }[];
      };
    };
    const ids = () => ({ f: d.functionId, v: d.versionId, s: d.specId, i: d.instanceIds[0] });
    it.each([
      ['function', 'query($f: ID!) { function(id: $f) { id name } }'],
      ['functionVersion', 'query($v: ID!) { functionVersion(id: $v) { id status } }'],
      ['gpuSpecification', 'query($s: ID!) { gpuSpecification(id: $s) { id configuration } }'],
      ['instance', 'query($i: ID!) { instance(id: $i) { id state } }'],
    ])("query %s on another tenant's id is null", async (field, query) => {
      const theirs = await gql('dev-token-b', query, ids());
      expect([theirs.errors, theirs.data?.[field]]).toEqual([undefined, null]);
      expect((await gql('dev-token-a', query, ids())).data?.[field]).not.toBeNull();
    });
    it("query instances(ids:) answers null for another tenant's instances", async () => {
      const r = await gql('dev-token-b', 'query($ids: [ID!]!) { instances(ids: $ids) { id } }', { ids: d.instanceIds });
      expect(r.data?.instances).toEqual(d.instanceIds.map(() => null));
    });
    it.each([
      [
        'createFunctionVersion',
        'mutation($f: ID!) { createFunctionVersion(functionId: $f, input: {name: "x", helm: {chart: "oci://r/c-1.0.0.tgz", serviceName: "s"}}) { id } }',
      ],
      [
        'deployFunctionVersion',
        'mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: {gpuSpecifications: [{gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: 1, maxInstances: 1}]}) { id } }',
      ],
      [
        'updateGpuSpecification (revision)',
        'mutation($s: ID!) { updateGpuSpecification(id: $s, input: {revision: {configuration: {model: "b"}}}) { id } }',
      ],
      [
        'updateGpuSpecification (bounds)',
        'mutation($s: ID!) { updateGpuSpecification(id: $s, input: {maxInstances: 2}) { id } }',
      ],
      ['rollbackGpuSpecification', 'mutation($s: ID!) { rollbackGpuSpecification(id: $s) { id } }'],
      [
        'undeployFunctionVersion',
        'mutation($v: ID!) { undeployFunctionVersion(versionId: $v, graceful: true) { id } }',
      ],
    ])("mutation %s on another tenant's object is NOT_FOUND and changes nothing", async (_n, mutation) => {
      const snapshot = async () =>
        (
          await gql(
            'dev-token-a',
            'query($f: ID!, $s: ID!) { function(id: $f) { versions { id status } } gpuSpecification(id: $s) { maxInstances latestRevision { id } } }',
            ids(),
          )
        ).data;
      const before = await snapshot();
      const r = await gql('dev-token-b', mutation, ids());
      expect(r.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await snapshot()).toEqual(before);
    });
    it.each([
      ['functionId', 'f'],
      ['versionId', 'v'],
      ['gpuSpecificationId', 's'],
      ['instanceId', 'i'],
    ] as const)(
      "subscribing by %s to another tenant's object with snapshot: true receives nothing",
      async (filter, key) => {
        const watchB = await watchSubscriptions(system.gateway.metricsUrl, 'nca-b');
        await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-b', InstanceStatusChangedDocument, {
          [filter]: ids()[key],
          snapshot: true,
        });
        await using sse = sseSubscribe(system.url, 'dev-token-b', InstanceStatusChangedDocument, {
          [filter]: ids()[key],
          snapshot: true,
        });
        await watchB.opened(2);
        // a's own snapshot of the same filter arrives at once: b's silence is not a slow stream
        await using mine = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
          [filter]: ids()[key],
          snapshot: true,
        });
        await mine.until((e) => e.length > 0, "tenant a's own snapshot");
        expect([ws.events, sse.events, ws.errors, sse.errors]).toEqual([[], [], [], []]);
      },
    );
    it("resuming with another tenant's cursor is CURSOR_INVALID", async () => {
      await using mine = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        functionId: d.functionId,
        snapshot: true,
      });
      const [first] = await mine.until((e) => e.length > 0, 'a cursor of tenant a');
      const r = await fetch(system.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          authorization: 'Bearer dev-token-b',
        },
        body: JSON.stringify({
          query: 'subscription($f: ID, $a: String) { instanceStatusChanged(functionId: $f, after: $a) { cursor } }',
          variables: { f: d.functionId, a: first.instanceStatusChanged.cursor },
        }),
      });
      expect(JSON.stringify(await r.json())).toContain('CURSOR_INVALID');
    });

    it("a subscription to another tenant's function receives none of its events", async () => {
      const watchB = await watchSubscriptions(system.gateway.metricsUrl, 'nca-b');
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      await using theirs = wsSubscribe(system.gateway.wsUrl, 'dev-token-b', InstanceStatusChangedDocument, {
        functionId: d.functionId,
      });
      await using sse = sseSubscribe(system.url, 'dev-token-b', InstanceStatusChangedDocument, {
        instanceId: d.instanceIds[0],
      });
      await using mine = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        functionId: d.functionId,
      });
      await watchB.opened(2);
      await watchA.opened(1);
      ok(await submit(a(), d.specId, { model: 'v2' }));
      await waitRevision(a(), d.specId, 'APPLIED');
      await mine.until((e) => e.some((x) => x.instanceStatusChanged.state === 'ACTIVE'));
      // the tenant-a events went out after tenant b subscribed; b's streams saw none of them
      expect(theirs.events).toEqual([]);
      expect(sse.events).toEqual([]);
    });

    it('without a valid token: UNAUTHENTICATED over HTTP and SSE, a closed socket over WebSocket', async () => {
      for (const token of [undefined, 'not-a-token']) {
        const r = await httpClient(system.url, token)(ClustersDocument, {});
        expect(r.status).toBe(401);
        expect(errorCode(r)).toBe('UNAUTHENTICATED');
        expect(r.data ?? null).toBeNull();
      }
      const sse = await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          query: 'subscription($f: ID) { instanceStatusChanged(functionId: $f) { state } }',
          variables: { f: d.functionId },
        }),
      });
      expect(sse.status).toBe(401);
      expect(await sse.text()).toContain('UNAUTHENTICATED');
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
        const ws = new WebSocket(system.gateway.wsUrl, 'graphql-transport-ws');
        ws.on('open', () =>
          ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer wrong' } })),
        );
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      });
      expect(closed.code).toBe(4401);
      expect(closed.reason).toContain('UNAUTHENTICATED');
    });

    it('a subgraph refuses requests that did not come through the gateway', async () => {
      const query = JSON.stringify({ query: '{ functions { id } }' });
      const direct = async (headers: Record<string, string>) => {
        const res = await fetch(system.subgraphs.nvcf, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: query,
        });
        return {
          status: res.status,
          body: (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] },
        };
      };
      for (const headers of [
        {} as Record<string, string>,
        { [TENANT_HEADER]: 'nca-a' },
        { [TENANT_HEADER]: signTenant('not-the-secret', 'nca-a', 'nvcf') },
        { [TENANT_HEADER]: signTenant(system.secret, 'nca-a', 'icms') },
        { [TENANT_HEADER]: signTenant(system.secret, 'nca-a', 'rpc:nvcf') },
        { authorization: 'Bearer dev-token-a' },
      ]) {
        const r = await direct(headers);
        expect(r.status).toBe(401);
        expect(r.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        expect(r.body.data ?? null).toBeNull();
      }
      // an assertion minted for a subgraph's GraphQL endpoint (the one the gateway sends) is no key to internal RPCs
      for (const headers of [
        {} as Record<string, string>,
        { [TENANT_HEADER]: signTenant(system.secret, 'nca-a', 'icms') },
        { [TENANT_HEADER]: signTenant(system.secret, 'nca-a', 'nvcf') },
      ]) {
        const rpc = await fetch(`${system.services.icms}/internal/rpc/terminate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ versionId: d.versionId, graceful: false }),
        });
        expect(rpc.status).toBe(401);
      }
      expect(ok(await a()(FunctionVersionDocument, { id: d.versionId })).functionVersion!.status).toBe('ACTIVE');
    });
  });
}

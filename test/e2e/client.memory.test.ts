/**
 * @nvcf/client against the embedded system: typed operations sent by trusted-document id, the
 * text fallback, NvcfError codes, and watch() resuming across broken connections on both
 * transports with nothing lost and nothing repeated.
 */
import WebSocket from 'ws';
import { parse } from 'graphql';
import { startSystem, type System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import {
  createClient,
  NvcfError,
  ClustersDocument,
  CreateFunctionDocument,
  DeployFunctionVersionDocument,
  FunctionsDocument,
  GpuSpecificationDocument,
  UpdateGpuSpecificationDocument,
  type WatchItem,
  type NvcfClient,
  type StatusEvent,
} from '@nvcf/client';
import { l40s, startTcpProxy } from '../src/index.js';

const bodies: Record<string, unknown>[] = [];
const recording: typeof fetch = (input, init) => {
  if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body) as Record<string, unknown>);
  return fetch(input, init);
};

async function deployed(client: NvcfClient) {
  const created = await client.mutate(CreateFunctionDocument, {
    input: {
      name: `client-${Date.now().toString(36)}`,
      inferenceUrl: '/v1/infer',
      inferencePort: 8000,
      helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
    },
  });
  const d = await client.mutate(DeployFunctionVersionDocument, {
    versionId: created.createFunction.id,
    input: { gpuSpecifications: [l40s({ minInstances: 2 })] },
  });
  const specId = d.deployFunctionVersion.gpuSpecifications[0].id;
  const spec = await waitUntil(
    async () => {
      const s = (await client.query(GpuSpecificationDocument, { id: specId })).gpuSpecification;
      return s?.latestRevision?.status === 'APPLIED' && s.instances.every((i) => i.state === 'ACTIVE') && s;
    },
    { what: 'first revision applied' },
  );
  return { functionId: created.createFunction.function.id, specId, instanceIds: spec.instances.map((i) => i.id) };
}

/** Collects a watch until `done` holds for its events; the items (connection changes too) kept in order. */
function collect(
  client: NvcfClient,
  filter: Parameters<NvcfClient['watch']>[0],
  opts: Parameters<NvcfClient['watch']>[1] = {},
) {
  const items: WatchItem[] = [];
  const stop = new AbortController();
  const finished = (async () => {
    for await (const item of client.watch(filter, { ...opts, signal: stop.signal })) items.push(item);
  })();
  const events = () => items.flatMap((i) => (i.type === 'event' ? [i.event] : []));
  return {
    items,
    events,
    finished,
    stop: async () => {
      stop.abort();
      await finished;
    },
  };
}

const appliedEverywhere = (events: StatusEvent[], instanceIds: string[], revisionId: string) =>
  instanceIds.every((id) =>
    events.some((e) => e.instance.id === id && e.state === 'ACTIVE' && e.revisionId === revisionId),
  );

describe('@nvcf/client', () => {
  let system: System;
  beforeAll(async () => {
    system = await startSystem({ sim: { startDelayMs: 30, updateDelayMs: 400 } });
  });
  afterAll(async () => {
    await system?.dispose();
  });

  it('sends generated operations by their trusted-document id, typed end to end', async () => {
    const client = createClient({ url: system.url, token: 'dev-token-a', fetch: recording });
    bodies.length = 0;
    const { functionId } = await deployed(client);
    const fns = await client.query(FunctionsDocument);
    expect(fns.functions.map((f) => f.id)).toContain(functionId);
    expect(bodies.length).toBeGreaterThan(2);
    for (const b of bodies) {
      expect(b.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(b).not.toHaveProperty('query');
    }
  });

  it('sends the text once the gateway turns out not to know the id (TRUSTED_DOCUMENTS=off)', async () => {
    await using off = await startSystem({ trustedDocuments: 'off' });
    const client = createClient({ url: off.url, token: 'dev-token-a', fetch: recording });
    bodies.length = 0;
    await client.query(FunctionsDocument);
    await client.query(FunctionsDocument);
    expect(bodies.map((b) => ('documentId' in b ? 'id' : 'text'))).toEqual(['id', 'text', 'text']);
  });

  it('reports failures as NvcfError with the registry code', async () => {
    const anonymous = createClient({ url: system.url, token: 'not-a-token' });
    const refused = await anonymous.query(FunctionsDocument).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NvcfError);
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });

    const client = createClient({ url: system.url, token: 'dev-token-a' });
    const bad = await client
      .mutate(UpdateGpuSpecificationDocument, { id: 'no-such-spec', input: { minInstances: 1 } })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'NOT_FOUND' });
    expect((bad as NvcfError).message).toMatch(/no-such-spec/);

    const nowhere = createClient({ url: 'http://127.0.0.1:9/graphql', token: 'dev-token-a', queryRetries: 0 });
    await expect(nowhere.query(FunctionsDocument)).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    await expect(async () => {
      for await (const _ of client.watch({})) break;
    }).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('takes a string or a DocumentNode, sent as text, as graphql-request and Apollo Client users write them', async () => {
    const client = createClient({ url: system.url, token: 'dev-token-a', fetch: recording });
    bodies.length = 0;
    const typed = (await client.query(ClustersDocument)).clusters.map((c) => c.id);
    const text = await client.query<{ clusters: { id: string }[] }>('{ clusters { id } }');
    expect(text.clusters.map((c) => c.id)).toEqual(typed);
    const node = await client.query<{ clusters: { id: string }[] }>(parse('query Mine { clusters { id } }'));
    expect(node.clusters.map((c) => c.id)).toEqual(typed);
    const created = await client.mutate<{ createFunction: { function: { id: string } } }>(
      'mutation New($input: CreateFunctionInput!) { createFunction(input: $input) { function { id } } }',
      { input: { name: 'by-text', helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' } } },
    );
    const read = await client.query<{ function: { name: string } }>('query($id: ID!) { function(id: $id) { name } }', {
      id: created.createFunction.function.id,
    });
    expect(read.function.name).toBe('by-text');
    expect(bodies.map((b) => ('documentId' in b ? 'id' : b.query === undefined ? '?' : 'text'))).toEqual([
      'id',
      'text',
      'text',
      'text',
      'text',
    ]);
    expect(bodies[1]).toEqual({ query: '{ clusters { id } }' });
  });

  it('tells a mistake in the program from an outage: where it happened, never UNAVAILABLE', async () => {
    const client = createClient({ url: system.url, token: 'dev-token-a', fetch: recording });
    bodies.length = 0;
    // found here, before anything is sent
    await expect(client.query('{ clusters { id }')).rejects.toMatchObject({ code: 'GRAPHQL_PARSE_FAILED' });
    await expect(client.query('{ clusters { id } }', [] as never)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(bodies).toEqual([]);
    // found by the gateway: its code and status, and no retry
    await expect(client.query('{ clusters { nope } }')).rejects.toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      status: 400,
    });
    await expect(
      client.query('query($id: ID!) { function(id: $id) { id } }', { id: { not: 'an id' } }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });
    expect(bodies).toHaveLength(2);
  });

  it.each(['sse', 'ws'] as const)('subscribes over %s with a string', async (transport) => {
    const setup = createClient({ url: system.url, token: 'dev-token-a' });
    const { specId, instanceIds } = await deployed(setup);
    const client = createClient({
      url: system.url,
      token: 'dev-token-a',
      ...(transport === 'ws' ? { transport, webSocketImpl: WebSocket } : { transport }),
    });
    const seen: { kind: string; instance: { id: string } }[] = [];
    for await (const data of client.subscribe<{
      instanceStatusChanged: { kind: string; instance: { id: string } };
    }>(
      'subscription($s: ID!) { instanceStatusChanged(gpuSpecificationId: $s, snapshot: true) { kind instance { id } } }',
      { s: specId },
    )) {
      seen.push(data.instanceStatusChanged);
      if (seen.length === instanceIds.length) break;
    }
    expect(seen.map((e) => e.kind)).toEqual(instanceIds.map(() => 'SNAPSHOT'));
    expect(seen.map((e) => e.instance.id).sort()).toEqual([...instanceIds].sort());
  });

  it.each(['sse', 'ws'] as const)(
    'watch over %s resumes across broken connections: the same events as an unbroken watch, none twice',
    async (transport) => {
      const client = createClient({ url: system.url, token: 'dev-token-a' });
      const { specId, instanceIds } = await deployed(client);
      await using proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(system.url).port) });
      const opts = transport === 'ws' ? { transport, webSocketImpl: WebSocket } : { transport };
      const direct = collect(createClient({ url: system.url, token: 'dev-token-a', ...opts }), {
        gpuSpecificationId: specId,
      });
      const broken = collect(
        createClient({ url: `http://${proxy.address}/graphql`, token: 'dev-token-a', ...opts }),
        { gpuSpecificationId: specId },
        { initialDelayMs: 50 },
      );
      await waitUntil(
        () => direct.items.some((i) => i.type === 'connected') && broken.items.some((i) => i.type === 'connected'),
        { what: 'both watches connected' },
      );

      const updated = await client.mutate(UpdateGpuSpecificationDocument, {
        id: specId,
        input: { revision: { configuration: { replicas: 1, model: 'v2' } } },
      });
      const revisionId = updated.updateGpuSpecification.latestRevision!.id;
      // twice: the connection drops, stays down a while, comes back (the first time mid-rollout)
      const seenAtCut: number[] = [];
      for (let cut = 1; cut <= 2; cut++) {
        await waitUntil(() => broken.events().length >= cut * 2, { what: `event ${cut * 2} before cut ${cut}` });
        seenAtCut.push(broken.events().length);
        await proxy.cut();
        await waitUntil(() => broken.items.filter((i) => i.type === 'reconnecting').length >= cut, {
          what: `reconnecting after cut ${cut}`,
        });
        await proxy.restore();
        await waitUntil(() => broken.items.filter((i) => i.type === 'connected').length > cut, {
          what: `connected again after cut ${cut}`,
        });
      }
      await waitUntil(
        () =>
          appliedEverywhere(direct.events(), instanceIds, revisionId) &&
          appliedEverywhere(broken.events(), instanceIds, revisionId),
        { what: 'every instance ACTIVE on the new revision in both watches' },
      );
      await direct.stop();
      await broken.stop();

      const cursors = (w: typeof direct) => w.events().map((e) => e.cursor);
      expect(cursors(broken)).toEqual(cursors(direct));
      expect(new Set(cursors(broken)).size).toBe(cursors(broken).length);
      // the first cut was not after the end: transitions happened while that connection was down or after
      expect(cursors(direct).length).toBeGreaterThan(seenAtCut[0]);
      expect(broken.items.filter((i) => i.type === 'connected').length).toBeGreaterThanOrEqual(3);
      const reconnecting = broken.items.find((i) => i.type === 'reconnecting');
      expect(reconnecting).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    },
  );

  it('surfaces an expired cursor: an NvcfError, or with onExpired "snapshot" an explicit item and the current state', async () => {
    await using small = await startSystem({
      sim: { startDelayMs: 10, updateDelayMs: 10 },
      statusRetention: { maxMsgs: 4 },
    });
    const client = createClient({ url: small.url, token: 'dev-token-a' });
    const { specId, instanceIds } = await deployed(client);
    const first = collect(client, { gpuSpecificationId: specId }, { snapshot: true });
    await waitUntil(() => first.events().length >= instanceIds.length, { what: 'a snapshot' });
    await first.stop();
    const old = first.events()[0].cursor;
    // more transitions than the stream keeps: the old cursor now points before its start
    for (const model of ['v2', 'v3']) {
      const u = await client.mutate(UpdateGpuSpecificationDocument, {
        id: specId,
        input: { revision: { configuration: { replicas: 1, model } } },
      });
      await waitUntil(
        async () =>
          (await client.query(GpuSpecificationDocument, { id: specId })).gpuSpecification?.latestRevision?.id ===
            u.updateGpuSpecification.latestRevision!.id &&
          (await client.query(GpuSpecificationDocument, { id: specId })).gpuSpecification?.latestRevision?.status ===
            'APPLIED',
        { what: `${model} applied` },
      );
    }
    await expect(async () => {
      for await (const _ of client.watch({ gpuSpecificationId: specId }, { after: old })) break;
    }).rejects.toMatchObject({ code: 'CURSOR_EXPIRED' });

    const again = collect(client, { gpuSpecificationId: specId }, { after: old, onExpired: 'snapshot' });
    await waitUntil(() => again.events().length >= instanceIds.length, { what: 'the snapshot after expiry' });
    await again.stop();
    const kinds = again.items.map((i) => (i.type === 'event' ? i.event.kind : i.type));
    expect(kinds).toContain('SNAPSHOT');
    expect(kinds.slice(0, kinds.indexOf('SNAPSHOT'))).toContain('expired');
    expect(
      again
        .events()
        .filter((e) => e.kind === 'SNAPSHOT')
        .map((e) => e.instance.id)
        .sort(),
    ).toEqual([...instanceIds].sort());
  });
});

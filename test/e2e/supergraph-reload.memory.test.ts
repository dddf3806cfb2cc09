import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { startGateway } from '@nvcf/gateway';
import { startSystem, type System } from '@nvcf/local';
import { composeSupergraph, readSupergraph, subgraphSdl } from '@nvcf/schema';
import { waitUntil } from '@nvcf/testing';
import {
  configMapDir,
  deployedHelm,
  gauge,
  httpClient,
  readSpec,
  slowHttp,
  sseRaw,
  submit,
  waitRevision,
  watchSubscriptions,
  wsMany,
  ok,
  type ConfigMapDir,
  type SseEvent,
  type WsConnection,
} from '@nvcf/test';
import { fast } from './suites/system.js';

// Live supergraph reload (issue 32, item 4): a ConfigMap update or SIGHUP replaces the supergraph
// without closing status subscriptions, and ends only those whose selection it breaks.

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** The supergraph composed with InstanceStatusEvent.message changed by `edit`. */
const withMessage = (edit: (line: string) => string) =>
  composeSupergraph((name) => {
    const sdl = subgraphSdl(name);
    if (name !== 'nvca-status') return sdl;
    if (sdl.split('\n  message: String\n').length !== 2) throw new Error('nvca-status.graphql changed: fix this test');
    return sdl.replace('\n  message: String\n', edit('\n  message: String\n'));
  }).supergraph;
const compatible = withMessage(
  () => '\n  message: String @deprecated(reason: "read the instance\'s events instead")\n',
);
const breaking = withMessage(() => '\n');

const WATCH = `subscription Watch($s: ID) { instanceStatusChanged(gpuSpecificationId: $s) {
  cursor kind state revisionId instance { id } } }`;
const WATCH_MESSAGE = `subscription WatchMessage($s: ID) { instanceStatusChanged(gpuSpecificationId: $s) {
  cursor kind state revisionId message instance { id } } }`;
const WS_CONNECTIONS = 5;
const PER_CONNECTION = 100; // the gateway's limit per connection
const SSE_SUBSCRIPTIONS = 500;
const MESSAGE_EVERY = 4; // every 4th subscription selects `message`, which the breaking reload removes

interface Event {
  cursor: string;
  state: string;
  instanceId: string;
  revisionId: string | null;
}
interface Sub {
  transport: 'ws' | 'sse';
  selectsMessage: boolean;
  events(): Event[];
  /** results that carried errors, and the error that ended it (graphql-ws `error`) */
  errors(): any[];
  completed(): boolean;
  /** the connection under it is gone */
  closed(): boolean;
}

const toEvent = (data: any): Event => {
  const e = data.instanceStatusChanged;
  return { cursor: e.cursor, state: e.state, instanceId: e.instance.id, revisionId: e.revisionId };
};
const introspectMessage = `{ __type(name: "InstanceStatusEvent") { fields(includeDeprecated: true) { name isDeprecated } } }`;

describe('live supergraph reload', () => {
  let system: System;
  let cm: ConfigMapDir;
  let specId: string;
  let instanceIds: string[];
  const subs: Sub[] = [];
  const sockets: WsConnection[] = [];
  const sse: ReturnType<typeof sseRaw>[] = [];
  const a = () => httpClient(system.url, 'dev-token-a');
  const reloads = (result: string) =>
    gauge(system.gateway.metricsUrl, 'nvcf_gateway_supergraph_reloads_total', { result });
  const started = performance.now();

  beforeAll(async () => {
    cm = configMapDir({ 'supergraph.graphql': readSupergraph() });
    system = await startSystem({
      ...fast,
      supergraphFile: cm.path('supergraph.graphql'),
      supergraphDebounceMs: 50,
      // a thousand opens at once from one tenant: the rates are not what this test is about
      gatewayLimits: { operationsPerSecond: 0, subscriptionsPerSecond: 0 },
    });
    const d = await deployedHelm(a(), { minInstances: 4, maxInstances: 4 });
    specId = d.specId;
    instanceIds = d.instanceIds;
    const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
    const variables = { s: specId };
    for (let c = 0; c < WS_CONNECTIONS; c++) {
      const ops = Array.from({ length: PER_CONNECTION }, (_, i) => ({
        id: `w${c}-${i}`,
        query: i % MESSAGE_EVERY === 0 ? WATCH_MESSAGE : WATCH,
        variables,
      }));
      const conn = await wsMany(system.gateway.wsUrl, 'dev-token-a', ops);
      sockets.push(conn);
      for (const op of conn.operations.values())
        subs.push({
          transport: 'ws',
          selectsMessage: ops.find((o) => o.id === op.id)!.query === WATCH_MESSAGE,
          events: () => op.nexts.filter((n) => n.data).map((n) => toEvent(n.data)),
          errors: () => [...op.nexts.filter((n) => n.errors).flatMap((n) => n.errors!), ...(op.error ?? [])],
          completed: () => op.completed || !!op.error,
          closed: () => !!conn.closed,
        });
    }
    for (let i = 0; i < SSE_SUBSCRIPTIONS; i++) {
      const selectsMessage = i % MESSAGE_EVERY === 0;
      const s = sseRaw(system.url, 'dev-token-a', parse(selectsMessage ? WATCH_MESSAGE : WATCH), variables);
      sse.push(s);
      const nexts = () => s.events.filter((e: SseEvent) => e.event === 'next');
      subs.push({
        transport: 'sse',
        selectsMessage,
        events: () =>
          nexts()
            .filter((e) => e.data?.data)
            .map((e) => toEvent(e.data.data)),
        errors: () => nexts().flatMap((e) => e.data?.errors ?? []),
        completed: () => s.events.some((e) => e.event === 'complete'),
        closed: () => s.state.ended,
      });
    }
    await watch.opened(WS_CONNECTIONS * PER_CONNECTION + SSE_SUBSCRIPTIONS);
  }, 60_000);

  afterAll(async () => {
    for (const s of sse) s.close();
    await Promise.all(sockets.map((c) => c.close()));
    await system?.dispose();
    await cm?.[Symbol.asyncDispose]();
    console.log(`supergraph reload test: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  /** Every subscription in `group` received exactly `expected`, in order: no gap, no duplicate. */
  function expectExactly(group: Sub[], expected: Event[]) {
    const wrong = group.filter((s) => {
      const got = s.events().slice(-expected.length);
      return JSON.stringify(got) !== JSON.stringify(expected);
    });
    expect({ wrong: wrong.length, of: group.length }).toEqual({ wrong: 0, of: group.length });
  }
  const eventsSince = (s: Sub, n: number) => s.events().slice(n);

  it('reloads a compatible supergraph under a running rollout: 1000 subscriptions, none closed, no gap, no duplicate', async () => {
    const before = subs.map((s) => s.events().length);
    const reference = subs[0];
    // queries run through the reload: none may fail, whichever plan serves them
    let querying = true;
    const failures: unknown[] = [];
    let queries = 0;
    const loops = Array.from({ length: 4 }, async () => {
      while (querying) {
        try {
          if (!(await readSpec(a(), specId))) failures.push('no spec');
        } catch (err) {
          failures.push(err);
        }
        queries++;
      }
    });
    // each instance takes a while to update, so the reload lands between its UPDATING and ACTIVE
    ok(await submit(a(), specId, { model: 'v2', nvcfSimulate: { delayMs: 1500 } }));
    await waitUntil(() => eventsSince(reference, before[0]).some((e) => e.state === 'UPDATING'), {
      what: 'the rollout under way',
    });
    cm.update({ 'supergraph.graphql': compatible });
    await waitUntil(() => system.gateway.supergraphSha256() === sha(compatible), { what: 'the new supergraph served' });
    const seenAtReload = eventsSince(reference, before[0]).length;
    const spec = await waitRevision(a(), specId, 'APPLIED');
    const revision = spec.latestRevision!.id;
    await waitUntil(() => subs.every((s, i) => eventsSince(s, before[i]).length >= 8), {
      what: 'every subscription has the rollout',
    });
    querying = false;
    await Promise.all(loops);

    expect(seenAtReload).toBeLessThan(8); // the reload happened inside the rollout
    expect({ failures, some: queries > 0 }).toEqual({ failures: [], some: true });
    expect(subs.filter((s) => s.closed() || s.completed() || s.errors().length)).toEqual([]);
    const expected = eventsSince(reference, before[0]);
    // per instance: UPDATING towards the new revision, then ACTIVE on it, nothing else
    for (const id of instanceIds)
      expect(
        expected.filter((e) => e.instanceId === id).map((e) => [e.state, e.state === 'ACTIVE' && e.revisionId]),
      ).toEqual([
        ['UPDATING', false],
        ['ACTIVE', revision],
      ]);
    expect(new Set(expected.map((e) => e.cursor)).size).toBe(expected.length);
    expectExactly(subs, expected);
    expect(subs.filter((s) => s.transport === 'ws')).toHaveLength(500);
    expect(subs.filter((s) => s.transport === 'sse')).toHaveLength(500);
    // queries plan on the new supergraph
    const types = await (
      await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
        body: JSON.stringify({ query: introspectMessage }),
      })
    ).json();
    expect(types.data.__type.fields).toContainEqual({ name: 'message', isDeprecated: true });
    expect(await reloads('ok')).toBe(1);
    expect(await gauge(system.gateway.metricsUrl, 'nvcf_gateway_subscriptions_schema_changed_total')).toBe(0);
  });

  it('refuses a file that is not a valid supergraph: the old one serves on, ready, counted, nothing closed', async () => {
    const served = system.gateway.supergraphSha256();
    const bad = [
      'type Query {', // not GraphQL
      'type Query { hello: String }', // GraphQL, not a composed supergraph
      compatible.replace('cursor: String!', 'cursor: Missing!'), // a supergraph whose schema does not build
    ];
    for (const [i, text] of bad.entries()) {
      cm.update({ 'supergraph.graphql': text });
      await waitUntil(async () => (await reloads('invalid')) === i + 1, { what: `bad file ${i} refused` });
    }
    expect(system.gateway.supergraphSha256()).toBe(served);
    expect((await fetch(`${system.gateway.url}/ready`)).status).toBe(200);
    expect(await reloads('ok')).toBe(1);
    // the same refusal through the API, with its reason
    const r = await system.gateway.reload('type Query {');
    expect(r).toMatchObject({ result: 'invalid', reason: expect.stringContaining('not GraphQL') });
    expect(subs.filter((s) => s.closed() || s.completed() || s.errors().length)).toEqual([]);
    // back to the served bytes: unchanged, not counted
    cm.update({ 'supergraph.graphql': compatible });
    expect(await system.gateway.reload()).toEqual({ result: 'unchanged', sha256: served });
  });

  it('a supergraph that removes a selected field ends exactly those subscriptions, once, with SCHEMA_CHANGED', async () => {
    const affected = subs.filter((s) => s.selectsMessage);
    const others = subs.filter((s) => !s.selectsMessage);
    expect(affected).toHaveLength(250);
    cm.update({ 'supergraph.graphql': breaking });
    await waitUntil(() => system.gateway.supergraphSha256() === sha(breaking), { what: 'the breaking supergraph' });
    await waitUntil(() => affected.every((s) => s.completed()), { what: 'every affected subscription ended' });
    const codes = affected.map((s) => s.errors().map((e) => e.extensions?.code));
    expect(codes.filter((c) => JSON.stringify(c) !== '["SCHEMA_CHANGED"]')).toEqual([]);
    // SSE ends its response after `complete`; WebSockets stay open for the connection's other subscriptions
    await waitUntil(() => affected.filter((s) => s.transport === 'sse').every((s) => s.closed()));
    expect(affected.filter((s) => s.transport === 'ws' && s.closed())).toEqual([]);
    expect(others.filter((s) => s.closed() || s.completed() || s.errors().length)).toEqual([]);
    expect(await gauge(system.gateway.metricsUrl, 'nvcf_gateway_subscriptions_schema_changed_total')).toBe(250);

    // the others go on: a whole rollout, no gap, no duplicate; the ended ones get nothing more
    const before = subs.map((s) => s.events().length);
    ok(await submit(a(), specId, { model: 'v3' }));
    await waitRevision(a(), specId, 'APPLIED');
    await waitUntil(() => others.every((s) => eventsSince(s, before[subs.indexOf(s)]).length >= 8), {
      what: 'the others have the next rollout',
    });
    const expected = eventsSince(others[0], before[subs.indexOf(others[0])]);
    expectExactly(others, expected);
    expect(affected.filter((s) => eventsSince(s, before[subs.indexOf(s)]).length)).toEqual([]);
    expect(affected.flatMap((s) => s.errors())).toHaveLength(250); // once each, still
    // a new subscription selecting the removed field is refused up front
    const late = sseRaw(system.url, 'dev-token-a', parse(WATCH_MESSAGE), { s: specId });
    await late.done;
    expect(late.state.body).toContain('GRAPHQL_VALIDATION_FAILED');
  });

  it('a query in flight finishes on the plan it started with', async () => {
    // its subgraph answers slowly: the reload happens while the query waits for it
    await using nvcf = await slowHttp(system.subgraphs.nvcf, 1000);
    await using gateway = await startGateway({
      subgraphs: { ...system.subgraphs, nvcf: nvcf.url },
      verify: staticTokens(DEV_TOKENS),
      secret: system.secret,
      cursorSecret: system.secret,
      bus: system.backends.bus,
    });
    const query = (q: string) =>
      fetch(gateway.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
        body: JSON.stringify({ query: q }),
      }).then((r) => r.json() as Promise<{ data?: any; errors?: unknown[] }>);
    const inFlight = query('{ functions { id name } }');
    await waitUntil(() => nvcf.pending() === 1, { what: 'the query at its subgraph' });
    expect(await gateway.reload(compatible)).toMatchObject({ result: 'ok' });
    expect(nvcf.pending()).toBe(1); // still in flight when the new plan took over
    expect(await inFlight).toEqual({ data: { functions: expect.any(Array) } });
    expect((await query(introspectMessage)).data.__type.fields).toContainEqual({ name: 'message', isDeprecated: true });
  });

  it('SIGHUP reads the file again (a gateway process that does not watch it)', async () => {
    await using dir = configMapDir({ 'supergraph.graphql': readSupergraph() });
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        fileURLToPath(new URL('../src/sighup-gateway.ts', import.meta.url)),
        dir.path('supergraph.graphql'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { metricsUrl } = JSON.parse(line) as { metricsUrl: string };
      const serving = (text: string) => gauge(metricsUrl, 'nvcf_gateway_supergraph_info', { sha256: sha(text) });
      expect(await serving(readSupergraph())).toBe(1);
      dir.update({ 'supergraph.graphql': compatible });
      child.kill('SIGHUP');
      await waitUntil(async () => (await serving(compatible)) === 1, { what: 'reloaded on SIGHUP' });
      expect(await gauge(metricsUrl, 'nvcf_gateway_supergraph_reloads_total', { result: 'ok' })).toBe(1);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});

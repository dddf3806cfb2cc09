import { request, type IncomingMessage } from 'node:http';
import { print } from 'graphql';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { randomUUID } from 'node:crypto';
import { subjects, type StatusEvent } from '@nvcf/contracts';
import type { System } from '@nvcf/local';
import { InstanceStatusChangedDocument, type InstanceStatusChangedSubscription } from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import {
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  wsSubscribe,
  sseRaw,
  watchSubscriptions,
  gauge,
  wsText,
  type Collected,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

type Sub = Collected<InstanceStatusChangedSubscription>;
const cursors = (s: Sub) => s.events.map((e) => e.instanceStatusChanged.cursor);
const after = (all: string[], cursor: string) => all.slice(all.indexOf(cursor) + 1);

/** Publishes status events the way agents do (tests of order and slow clients need thousands). */
function publisher(system: System, functionId: string) {
  return (instanceId: string, clock: number, message = '') => {
    const e: StatusEvent = {
      ncaId: 'nca-a',
      functionId,
      versionId: 'v',
      gpuSpecificationId: 's',
      clusterId: system.clusters[0].id,
      instanceId,
      state: 'ACTIVE',
      previousState: 'UPDATING',
      revisionId: `r${clock}`,
      at: new Date().toISOString(),
      clock,
      message,
    };
    return system.backends.bus.publish(subjects.status('nca-a', instanceId), e);
  };
}

/**
 * A subscriber that reads as fast as it can, beside a slow one: once it has every instance's last
 * event, the gateway has read them all from the stream, so the slow one's feed was offered them
 * too (publishing returns when the stream has an event, not when the gateway has read it).
 */
function witness(system: System, functionId: string) {
  const client = createWsClient({
    url: system.gateway.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: 'Bearer dev-token-a' },
    retryAttempts: 0,
  });
  const last = new Set<string>();
  const failed: unknown[] = [];
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= Promise.resolve(client.dispose()));
  client.subscribe<{ instanceStatusChanged: { message: string; instance: { id: string } } }>(
    {
      query: 'subscription($f: ID) { instanceStatusChanged(functionId: $f) { message instance { id } } }',
      variables: { f: functionId },
    },
    {
      next: (r) => {
        const e = r.data?.instanceStatusChanged;
        if (e?.message === 'last') last.add(e.instance.id);
      },
      complete: () => {},
      error: (e) => failed.push(e),
    },
  );
  return {
    sawAllLast: (instances: number) =>
      waitUntil(
        () => {
          if (failed.length) throw new Error(`the witness subscription failed: ${JSON.stringify(failed)}`);
          return last.size === instances;
        },
        { timeoutMs: 120_000, what: "the witness to read every instance's last event" },
      ),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** instanceStatusChanged as DOMAIN.md and the subscriptions issue promise it, through the gateway. */
export function streamSuite(name: string, make: MakeSystem) {
  describe(`${name}: resumable status subscriptions`, () => {
    let system: System;
    const a = () => httpClient(system.url, 'dev-token-a');
    const openNow = () => gauge(system.gateway.metricsUrl, 'nvcf_status_subscriptions_open', { tenant: 'nca-a' });
    beforeAll(async () => {
      system = await make({ ...fast, statusLimits: { bufferEvents: 16, maxConflated: 10_000 } });
    });
    afterAll(async () => system?.dispose());

    async function rollout(specId: string, model: string) {
      ok(await submit(a(), specId, { model }));
      return waitRevision(a(), specId, 'APPLIED');
    }

    it('resumes over graphql-ws after a cursor: exactly the events after it, in order, then live', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const d = await deployedHelm(a());
      await using control = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      const first = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      await watchA.opened(2);
      await rollout(d.specId, 'v2');
      await first.until((e) => e.length === 4);
      const cursor = cursors(first).at(-1)!;
      await first.dispose();
      await rollout(d.specId, 'v3'); // while the client is away
      await using resumed = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
        after: cursor,
      });
      await resumed.until((e) => e.length === 4, 'the missed events');
      await rollout(d.specId, 'v4');
      await control.until((e) => e.length === 12);
      await resumed.until((e) => e.length === 8, 'the missed events, then live ones');
      expect(cursors(resumed)).toEqual(after(cursors(control), cursor));
    });

    it('resumes over SSE with Last-Event-ID; every event carries its cursor as the SSE id', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const d = await deployedHelm(a());
      await using control = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      const first = sseRaw(system.url, 'dev-token-a', InstanceStatusChangedDocument, { gpuSpecificationId: d.specId });
      await watchA.opened(2);
      await rollout(d.specId, 'v2');
      await waitUntil(() => first.events.length === 4);
      for (const e of first.events) expect(e.id).toBe(e.data.data.instanceStatusChanged.cursor);
      const lastId = first.lastId()!;
      first.close();
      await rollout(d.specId, 'v3');
      const resumed = sseRaw(
        system.url,
        'dev-token-a',
        InstanceStatusChangedDocument,
        { gpuSpecificationId: d.specId },
        lastId,
      );
      await waitUntil(() => resumed.events.length === 4, { what: 'missed events over SSE' });
      await rollout(d.specId, 'v4');
      await control.until((e) => e.length === 12);
      await waitUntil(() => resumed.events.length === 8);
      expect(resumed.events.map((e) => e.id)).toEqual(after(cursors(control), lastId));
      resumed.close();
    });

    it('refuses forged and foreign cursors with CURSOR_INVALID and sends nothing', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      await using mine = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      await watchA.opened(1);
      await rollout(d.specId, 'v2');
      const real = (await mine.until((e) => e.length === 2))[1].instanceStatusChanged.cursor;
      for (const [token, cursor] of [
        ['dev-token-a', 'v1.1.forgedmacforgedmacfo'],
        ['dev-token-b', real],
      ] as const) {
        await using ws = wsSubscribe(system.gateway.wsUrl, token, InstanceStatusChangedDocument, {
          gpuSpecificationId: d.specId,
          after: cursor,
        });
        await waitUntil(() => ws.errors.length > 0 || ws.completed);
        expect(JSON.stringify(ws.errors)).toContain('CURSOR_INVALID');
        expect(ws.events).toEqual([]);
        const sse = sseRaw(system.url, token, InstanceStatusChangedDocument, { gpuSpecificationId: d.specId }, cursor);
        await sse.done;
        expect(sse.state.status).toBe(400);
        expect(sse.state.body).toContain('CURSOR_INVALID');
      }
    });

    it('snapshot: true gives the current state of every matching instance, then deltas', async () => {
      const d = await deployedHelm(a(), { minInstances: 3, maxInstances: 3 });
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
        snapshot: true,
      });
      const snap = await sub.until((e) => e.length === 3, 'the snapshot');
      expect(
        snap.map((e) => [
          e.instanceStatusChanged.kind,
          e.instanceStatusChanged.state,
          e.instanceStatusChanged.revisionId,
        ]),
      ).toEqual(Array(3).fill(['SNAPSHOT', 'ACTIVE', d.firstRevisionId]));
      expect(snap.map((e) => e.instanceStatusChanged.instance.id).sort()).toEqual([...d.instanceIds].sort());
      const rev = (await rollout(d.specId, 'v2')).latestRevision!.id;
      const all = await sub.until((e) => e.length === 9);
      expect(all.slice(3).every((e) => e.instanceStatusChanged.kind === 'TRANSITION')).toBe(true);
      expect(
        all
          .slice(3)
          .filter((e) => e.instanceStatusChanged.state === 'ACTIVE')
          .every((e) => e.instanceStatusChanged.revisionId === rev),
      ).toBe(true);
    });

    it('keeps each instance in order under concurrent publishers; a stale transition is never delivered', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      // a real instance, so the Instance fields resolve; the transitions come from five racing publishers
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 1 });
      const publish = publisher(system, d.functionId);
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        functionId: d.functionId,
      });
      await watchA.opened(1);
      const clocks = Array.from({ length: 60 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
      await Promise.all(
        Array.from({ length: 5 }, (_, p) =>
          (async () => {
            for (const c of clocks.filter((_, i) => i % 5 === p)) await publish(d.instanceIds[0], c, `clock=${c}`);
          })(),
        ),
      );
      await publish(d.instanceIds[0], 61, 'clock=61');
      const seen = (await sub.until((e) => e.some((x) => x.instanceStatusChanged.message === 'clock=61'))).map((e) =>
        Number(e.instanceStatusChanged.message!.slice(6)),
      );
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.at(-1)).toBe(61);
    });

    it('a connection holds at most 100 status subscriptions, even when they arrive at once', async () => {
      const client = createWsClient({
        url: system.gateway.wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: 'Bearer dev-token-a' },
        retryAttempts: 0,
      });
      try {
        const refused: unknown[] = [];
        const before = await openNow();
        const query = print(InstanceStatusChangedDocument);
        // all 101 subscribe messages go out back to back, before the gateway answers any
        for (let i = 0; i < 101; i++)
          client.subscribe(
            { query, variables: { functionId: `f-${i}` } },
            { next: () => {}, complete: () => {}, error: (e) => refused.push(e) },
          );
        await waitUntil(async () => refused.length > 0 && (await openNow()) >= before + 100, {
          what: '100 subscriptions open and the 101st refused',
        });
        expect(JSON.stringify(refused)).toContain('LIMIT_EXCEEDED');
        expect(refused).toHaveLength(1);
        expect(await openNow()).toBe(before + 100);
      } finally {
        await client.dispose();
      }
    });

    it('errors name what to fix: no filter, both after and snapshot', async () => {
      for (const vars of [{}, { functionId: 'f', after: 'v1.1.x', snapshot: true }]) {
        await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, vars as any);
        await waitUntil(() => ws.errors.length > 0);
        expect(JSON.stringify(ws.errors)).toContain('BAD_USER_INPUT');
      }
    });

    // The two slow-client tests come last: each leaves thousands of padded events that the
    // system's status consumers are still writing to Cassandra for seconds after it passes.
    it('a slow client is conflated per instance and told so; memory stays bounded', async () => {
      const fn = `fn-slow-${randomUUID()}`;
      const publish = publisher(system, fn);
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const lagBefore = await gauge(system.gateway.metricsUrl, 'nvcf_status_lag_events_total', { tenant: 'nca-a' });
      const openBefore = await openNow();
      const received: any[] = [];
      let paused!: IncomingMessage;
      const req = request(
        system.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            authorization: 'Bearer dev-token-a',
          },
        },
        (res) => {
          paused = res;
          res.pause(); // the client stops reading: the kernel buffers fill, then the gateway's writes wait
          let buf = '';
          res.on('data', (chunk) => {
            buf += chunk;
            let i: number;
            while ((i = buf.indexOf('\n\n')) >= 0) {
              const data = buf
                .slice(0, i)
                .split('\n')
                .find((l) => l.startsWith('data: '));
              buf = buf.slice(i + 2);
              if (data) received.push(JSON.parse(data.slice(6)).data.instanceStatusChanged);
            }
          });
        },
      );
      req.end(
        JSON.stringify({
          query:
            'subscription($f: ID) { instanceStatusChanged(functionId: $f) { state message lag { skippedEvents resumeAfter } instance { id } } }',
          variables: { f: fn },
        }),
      );
      await using seen = witness(system, fn);
      await watchA.opened(2);
      // ~16 MB of events: more than loopback socket buffers hold, few enough for every reader of the stream
      const pad = 'x'.repeat(4096);
      const instances = 10,
        perInstance = 400;
      for (let c = 1; c <= perInstance; c++)
        await Promise.all(
          Array.from({ length: instances }, (_, i) => publish(`slow-${i}`, c, c === perInstance ? 'last' : pad)),
        );
      await seen.sawAllLast(instances);
      paused.resume();
      await waitUntil(
        () => new Set(received.filter((e) => e.message === 'last').map((e) => e.instance.id)).size === instances,
        { timeoutMs: 120_000, what: 'the last event of every instance' },
      );
      req.destroy();
      await seen.close();
      // the next test counts open subscriptions: these two are gone first
      await waitUntil(async () => (await openNow()) === openBefore, { what: 'the subscriptions closed' });
      expect(received.length).toBeLessThan(instances * perInstance);
      const lagged = received.filter((e) => e.lag);
      expect(lagged.length).toBeGreaterThan(0);
      expect(lagged.every((e) => e.lag.skippedEvents > 0 && e.lag.resumeAfter.startsWith('v1.'))).toBe(true);
      expect(
        await gauge(system.gateway.metricsUrl, 'nvcf_status_lag_events_total', { tenant: 'nca-a' }),
      ).toBeGreaterThan(lagBefore);
    }, 240_000);

    it('a slow graphql-ws client is conflated too: the gateway waits for the socket instead of buffering', async () => {
      const fn = `fn-slow-ws-${randomUUID()}`;
      const publish = publisher(system, fn);
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const received: any[] = [];
      const openBefore = await openNow();
      const ws = new WebSocket(system.gateway.wsUrl, 'graphql-transport-ws');
      try {
        ws.on('message', (raw) => {
          const m = JSON.parse(wsText(raw));
          if (m.type === 'connection_ack')
            ws.send(
              JSON.stringify({
                id: '1',
                type: 'subscribe',
                payload: {
                  query:
                    'subscription($f: ID) { instanceStatusChanged(functionId: $f) { message lag { skippedEvents resumeAfter } instance { id } } }',
                  variables: { f: fn },
                },
              }),
            );
          if (m.type === 'next') received.push(m.payload.data.instanceStatusChanged);
        });
        ws.on('open', () =>
          ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer dev-token-a' } })),
        );
        await using seen = witness(system, fn);
        await watchA.opened(2);
        (ws as unknown as { _socket: import('node:net').Socket })._socket.pause(); // stops reading: kernel buffers fill
        const pad = 'x'.repeat(4096);
        const instances = 10,
          perInstance = 400;
        const all = Array.from(
          { length: (perInstance - 1) * instances },
          (_, n) => [n % instances, 1 + Math.floor(n / instances)] as const,
        );
        for (let k = 0; k < all.length; k += 500)
          await Promise.all(all.slice(k, k + 500).map(([i, c]) => publish(`slow-ws-${i}`, c, pad)));
        await Promise.all(Array.from({ length: instances }, (_, i) => publish(`slow-ws-${i}`, perInstance, 'last')));
        await seen.sawAllLast(instances);
        (ws as unknown as { _socket: import('node:net').Socket })._socket.resume();
        await waitUntil(
          () => new Set(received.filter((e) => e.message === 'last').map((e) => e.instance.id)).size === instances,
          { timeoutMs: 120_000, what: 'the last event of every instance' },
        );
        expect(received.length).toBeLessThan(instances * perInstance);
        const lagged = received.filter((e) => e.lag);
        expect(lagged.length).toBeGreaterThan(0);
        expect(lagged.every((e) => e.lag.skippedEvents > 0 && e.lag.resumeAfter.startsWith('v1.'))).toBe(true);
      } finally {
        ws.terminate();
        await waitUntil(async () => (await openNow()) === openBefore, {
          what: 'the subscription closed with its socket',
        });
      }
    }, 240_000);
  });
}

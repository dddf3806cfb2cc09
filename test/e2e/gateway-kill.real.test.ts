import type { System } from '@nvcf/local';
import { InstanceStatusChangedDocument, type InstanceStatusChangedSubscription } from '@nvcf/client';
import { Streams } from '@nvcf/contracts';
import { decodeCursor } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
import { waitUntil } from '@nvcf/testing';
import {
  describeReal,
  startRealSystem,
  realEnv,
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  sseRaw,
  resumingSubscription,
  watchSubscriptions,
  statusLog,
  startGatewayProcess,
  type GatewayProcess,
} from '@nvcf/test';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra', () => {
  describe('real: a gateway replica killed with SIGKILL while subscribers are connected', () => {
    const stack = new DisposalStack();
    let system: System;
    let replicas: GatewayProcess[];
    beforeAll(async () => {
      system = await startRealSystem(fast);
      stack.defer(() => system.dispose());
      // two replicas in processes of their own (a SIGKILL must not take the test with it)
      const start = () =>
        startGatewayProcess({ subgraphs: system.subgraphs, natsUrl: realEnv().natsUrl, secret: system.secret });
      replicas = await Promise.all([start(), start()]);
      for (const r of replicas) stack.use(r);
    }, 90_000);
    afterAll(() => stack.disposeAsync());

    it('its subscribers resume on the other replica from their last cursor: no gap, no duplicate', async () => {
      const [one, two] = replicas as [GatewayProcess, GatewayProcess];
      const watch = await watchSubscriptions(one.metricsUrl, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      const from = (await system.backends.bus.streamInfo(Streams.status.name)).lastSeq + 1;
      await using stored = await statusLog(system.backends.bus, 'nca-a', from);
      const truth = () => stored.events.filter((e) => d.instanceIds.includes(e.instanceId));
      const ws = resumingSubscription<InstanceStatusChangedSubscription, any>(
        [one.wsUrl, two.wsUrl],
        'dev-token-a',
        InstanceStatusChangedDocument,
        { gpuSpecificationId: d.specId },
      );
      const sse = sseRaw(one.graphqlUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      let resumed: ReturnType<typeof sseRaw> | undefined;
      try {
        await watch.opened(2);
        const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 500 } }))
          .updateGpuSpecification.latestRevision!;
        const updating = (states: string[]) => states.filter((x) => x === 'UPDATING').length === 4;
        await waitUntil(
          () =>
            updating(ws.events.map((e) => e.instanceStatusChanged.state)) &&
            updating(sse.events.map((e) => e.data.data.instanceStatusChanged.state)),
          { what: 'every instance UPDATING, on both subscriptions' },
        );
        // replica 1 hangs, then is killed: the rest of the rollout happens while its subscribers hear nothing
        one.signal('SIGSTOP');
        await waitUntil(() => truth().filter((e) => e.state === 'ACTIVE').length === 4, {
          what: 'every instance ACTIVE on the bus',
        });
        expect(await one.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

        await waitUntil(() => ws.reconnects() === 1 && ws.events.length >= 8, {
          what: 'the WebSocket subscriber resumed on replica 2 with the rest',
        });
        await sse.done;
        expect(sse.state.error).toBeDefined(); // the stream broke off: no `complete`, no clean end
        expect(sse.events.some((e) => e.event === 'complete')).toBe(false);
        resumed = sseRaw(
          two.graphqlUrl,
          'dev-token-a',
          InstanceStatusChangedDocument,
          { gpuSpecificationId: d.specId },
          sse.lastId(),
        );
        await waitUntil(() => sse.events.length + resumed!.events.length >= 8, {
          what: 'the SSE subscriber resumed on replica 2 with Last-Event-ID',
        });
        const s = await waitRevision(a, d.specId, 'APPLIED');
        expect(s.latestRevision!.id).toBe(rev.id);

        // against the full list of transitions as stored: same events, same order, once each
        const seqs = truth().map((e) => e.seq);
        expect(stored.transitions(d.instanceIds)).toEqual(
          Object.fromEntries(d.instanceIds.map((id) => [id, ['UPDATING', 'ACTIVE']])),
        );
        const seqOf = (cursor: string) => decodeCursor(system.secret, 'nca-a', cursor);
        expect(ws.events.map((e) => seqOf(e.instanceStatusChanged.cursor))).toEqual(seqs);
        expect([...sse.events, ...resumed.events].map((e) => seqOf(e.id!))).toEqual(seqs);
        expect(ws.closes).toEqual([1006]); // dropped without a close frame: the process was gone
        expect(ws.errors).toEqual([]);
        expect(resumed.state).toMatchObject({ status: 200, ended: false, error: undefined });
      } finally {
        ws.dispose();
        sse.close();
        resumed?.close();
      }
    }, 60_000);
  });
});

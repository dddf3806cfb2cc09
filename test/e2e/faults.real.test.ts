import type { System } from '@nvcf/local';
import { InstanceStatusChangedDocument } from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import {
  describeReal,
  startRealSystem,
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  wsSubscribe,
  sseRaw,
  watchSubscriptions,
  statusLog,
  startTcpProxy,
  type TcpProxy,
} from '@nvcf/test';
import { createNatsBus } from '@nvcf/bus';
import { Streams } from '@nvcf/contracts';
import { startGateway, type RunningGateway } from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS, decodeCursor } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
import { startPrivateNats, type PrivateNats } from '../services/nats-private.js';
import { faultsSuite } from './suites/faults.suite.js';
import { fast } from './suites/system.js';

/** True once the simulated clusters have made `revisionId` ready on every one of the instances. */
async function appliedEverywhere(system: System, instanceIds: string[], revisionId: string) {
  const ready = await Promise.all(
    instanceIds.map(async (id) => {
      for (const driver of system.drivers.values())
        if ((await driver.observe(id))?.readyRevisionId === revisionId) return true;
      return false;
    }),
  );
  return ready.every(Boolean);
}

describeReal('NATS JetStream and Cassandra', () => {
  faultsSuite('real', startRealSystem);

  describe('real: a NATS restart during a rollout', () => {
    const stack = new DisposalStack();
    let nats: PrivateNats;
    let system: System;
    let link: TcpProxy;
    let replica2: RunningGateway;
    beforeAll(async () => {
      // a private nats-server: restarting the shared one would disturb every other test file
      nats = stack.use(await startPrivateNats());
      system = await startRealSystem(
        { ...fast, agentAckWaitMs: 1500, revisionDeadlineMs: 60_000 },
        { natsUrl: nats.url },
      );
      stack.defer(() => system.dispose());
      // replica 1 (system.gateway) shares its NATS connection with the agents; replica 2 has its
      // own, through a link the test cuts: it comes back only after the agents' events are stored
      const u = new URL(nats.url);
      link = stack.use(await startTcpProxy({ host: u.hostname, port: Number(u.port) }));
      const bus = stack.use(await createNatsBus({ servers: `nats://${link.address}`, name: 'replica-2' }));
      replica2 = stack.use(
        await startGateway({
          subgraphs: system.subgraphs,
          verify: staticTokens(DEV_TOKENS),
          secret: system.secret,
          cursorSecret: system.secret,
          bus,
        }),
      );
    });
    afterAll(() => stack.disposeAsync());

    it("each replica's status read resumes where it stopped: WebSocket and SSE subscribers get every stored transition once, in order", async () => {
      const replicas = [
        { wsUrl: system.gateway.wsUrl, graphqlUrl: system.url, metricsUrl: system.gateway.metricsUrl },
        replica2,
      ];
      const watches = await Promise.all(replicas.map((r) => watchSubscriptions(r.metricsUrl, 'nca-a')));
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      const from = (await system.backends.bus.streamInfo(Streams.status.name)).lastSeq + 1;
      const subs = replicas.map((r) => ({
        ws: wsSubscribe(r.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, { gpuSpecificationId: d.specId }),
        sse: sseRaw(r.graphqlUrl, 'dev-token-a', InstanceStatusChangedDocument, { gpuSpecificationId: d.specId }),
      }));
      try {
        for (const w of watches) await w.opened(2);
        // long enough that no update finishes before NATS is down, even on a loaded machine
        const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 4000 } }))
          .updateGpuSpecification.latestRevision!;
        for (const { ws } of subs)
          await ws.until(
            (e) => e.filter((x) => x.instanceStatusChanged.state === 'UPDATING').length === 4,
            'every instance UPDATING',
          );
        await link.cut();
        const downAt = Date.now();
        await nats.stop();
        // down until every agent has finished its update: each ACTIVE is reported into the outage
        await waitUntil(() => appliedEverywhere(system, d.instanceIds, rev.id), {
          what: 'every instance applied while NATS is down',
          timeoutMs: 20_000,
        });
        await nats.start();
        const upAt = Date.now();
        // the ground truth: what the stream stores for these instances from the subscriptions on,
        // read on a connection of its own (not one of those under test)
        await using reader = await createNatsBus({ servers: nats.url, name: 'ground-truth' });
        await using stored = await statusLog(reader, 'nca-a', from);
        const truth = () => stored.events.filter((e) => d.instanceIds.includes(e.instanceId));
        await waitUntil(() => truth().filter((e) => e.state === 'ACTIVE').length === 4, {
          what: 'every ACTIVE stored, replica 2 still cut off',
        });
        await link.restore();
        const s = await waitRevision(a, d.specId, 'APPLIED', 45_000);
        expect(s.latestRevision!.id).toBe(rev.id);

        expect(stored.transitions(d.instanceIds)).toEqual(
          Object.fromEntries(d.instanceIds.map((id) => [id, ['UPDATING', 'ACTIVE']])),
        );
        // the case under test happened: every transition to ACTIVE was made while NATS was down
        expect(
          truth()
            .filter((e) => e.state === 'ACTIVE')
            .every((e) => Date.parse(e.at) >= downAt && Date.parse(e.at) < upAt),
        ).toBe(true);
        const seqs = truth().map((e) => e.seq);
        const seqOf = (cursor: string) => decodeCursor(system.secret, 'nca-a', cursor);
        for (const { ws, sse } of subs) {
          await ws.until((e) => e.length >= seqs.length, 'every stored transition over WebSocket');
          await waitUntil(() => sse.events.length >= seqs.length, { what: 'every stored transition over SSE' });
          const overSse = sse.events.map((e) => e.data.data.instanceStatusChanged as { cursor: string });
          // same events, same order: nothing missing, nothing twice, cursors strictly increasing
          expect(ws.events.map((e) => seqOf(e.instanceStatusChanged.cursor))).toEqual(seqs);
          expect(overSse.map((e) => seqOf(e.cursor))).toEqual(seqs);
          expect(sse.events.map((e) => e.id)).toEqual(overSse.map((e) => e.cursor));
          // both stayed on their replica throughout: the replica's read resumed, not the clients
          expect(ws.errors).toEqual([]);
          expect(ws.completed).toBe(false);
          expect(sse.state).toMatchObject({ status: 200, ended: false, error: undefined });
        }
      } finally {
        for (const { ws, sse } of subs) {
          sse.close();
          await ws.dispose();
        }
      }
    }, 60_000);
  });
});

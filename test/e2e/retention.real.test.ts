import type { System } from '@nvcf/local';
import { subjects, type StatusEvent } from '@nvcf/contracts';
import { InstanceStatusChangedDocument } from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import {
  describeReal,
  startRealSystem,
  httpClient,
  deployedHelm,
  wsSubscribe,
  sseRaw,
  watchSubscriptions,
} from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../services/nats-private.js';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra', () => {
  describe('real: a cursor older than the status stream retains', () => {
    let nats: PrivateNats;
    let system: System;
    beforeAll(async () => {
      // a private nats-server: a tiny retention on the shared one would expire other files' cursors
      nats = await startPrivateNats();
      system = await startRealSystem({ ...fast, statusRetention: { maxMsgs: 10 } }, { natsUrl: nats.url });
    });
    afterAll(async () => {
      await system?.dispose();
      await nats?.[Symbol.asyncDispose]();
    });

    it('is refused with CURSOR_EXPIRED naming the oldest cursor, over graphql-ws and SSE; that one resumes', async () => {
      const d = await deployedHelm(httpClient(system.url, 'dev-token-a'), { minInstances: 1, maxInstances: 1 });
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      await using first = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: d.instanceIds[0],
      });
      await watchA.opened(1);
      let clock = Date.now() * 1000;
      const publish = () => {
        const e: StatusEvent = {
          ncaId: 'nca-a',
          functionId: d.functionId,
          versionId: d.versionId,
          gpuSpecificationId: d.specId,
          clusterId: system.clusters[0].id,
          instanceId: d.instanceIds[0],
          state: 'ACTIVE',
          previousState: 'ACTIVE',
          revisionId: d.firstRevisionId,
          at: new Date().toISOString(),
          clock: ++clock,
        };
        return system.backends.bus.publish(subjects.status('nca-a', d.instanceIds[0]), e);
      };
      await publish();
      const old = (await first.until((e) => e.length === 1))[0].instanceStatusChanged.cursor;
      for (let i = 0; i < 15; i++) await publish(); // the stream keeps 10: the first cursor's successor is gone
      await first.until((e) => e.length === 16);

      await using ws = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: d.instanceIds[0],
        after: old,
      });
      await waitUntil(() => ws.errors.length > 0, { what: 'CURSOR_EXPIRED over graphql-ws' });
      const err = (ws.errors[0] as { extensions: { code: string; oldestCursor: string } }[])[0];
      expect(err.extensions.code).toBe('CURSOR_EXPIRED');
      expect(ws.events).toEqual([]);
      const sse = sseRaw(
        system.url,
        'dev-token-a',
        InstanceStatusChangedDocument,
        { instanceId: d.instanceIds[0] },
        old,
      );
      await sse.done;
      expect(sse.state.status).toBe(400);
      expect(JSON.parse(sse.state.body).errors[0].extensions).toMatchObject({
        code: 'CURSOR_EXPIRED',
        oldestCursor: err.extensions.oldestCursor,
      });

      // the oldest cursor resumes: exactly the events the stream still has after it
      await using resumed = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: d.instanceIds[0],
        after: err.extensions.oldestCursor,
      });
      const tail = first.events.map((e) => e.instanceStatusChanged.cursor).slice(-10);
      await resumed.until((e) => e.length === 10, 'the ten retained events');
      expect(resumed.events.map((e) => e.instanceStatusChanged.cursor)).toEqual(tail);
    }, 90_000);
  });
});

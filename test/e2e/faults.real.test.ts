import type { System } from '@nvcf/local';
import { InstanceStatusChangedDocument } from '@nvcf/schema/generated';
import { describeReal, startRealSystem, httpClient, ok, deployedHelm, submit, waitRevision, wsSubscribe, watchSubscriptions } from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../services/nats-private.js';
import { faultsSuite, transitionsOf, noDuplicateCursors } from './suites/faults.suite.js';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra', () => {
  faultsSuite('real', startRealSystem);

  describe('real: a NATS restart during a rollout', () => {
    let nats: PrivateNats;
    let system: System;
    beforeAll(async () => {
      // a private nats-server: restarting the shared one would disturb every other test file
      nats = await startPrivateNats();
      system = await startRealSystem({ ...fast, agentAckWaitMs: 1500, revisionDeadlineMs: 60_000 }, { natsUrl: nats.url });
    });
    afterAll(async () => { await system?.dispose(); await nats?.[Symbol.asyncDispose](); });

    it('loses and duplicates nothing: every instance UPDATING then ACTIVE once, the revision APPLIED', async () => {
      const watchA = await watchSubscriptions(system.gateway.url, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, { gpuSpecificationId: d.specId });
      await watchA.opened(1);
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 1500 } })).updateGpuSpecification.latestRevision!;
      await sub.until((e) => e.some((x) => x.instanceStatusChanged.state === 'UPDATING'), 'the rollout under way');
      await nats.restart();
      const s = await waitRevision(a, d.specId, 'APPLIED', 45_000);
      expect(s.latestRevision!.id).toBe(rev.id);
      await sub.until((e) => e.filter((x) => x.instanceStatusChanged.state === 'ACTIVE').length >= 4, 'every instance ACTIVE again', 30_000);
      for (const states of Object.values(transitionsOf(sub, d.instanceIds))) expect(states).toEqual(['UPDATING', 'ACTIVE']);
      expect(noDuplicateCursors(sub)).toBe(true);
    }, 120_000);
  });
});

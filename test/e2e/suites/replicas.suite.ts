import { startGateway, type RunningGateway } from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import type { System } from '@nvcf/local';
import { InstanceStatusChangedDocument, type InstanceStatusChangedSubscription } from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import {
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  sseRaw,
  resumingSubscription,
  watchSubscriptions,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

/** Rolling deploys: a replica that shuts down hands its subscribers to another, nothing lost. */
export function replicasSuite(name: string, make: MakeSystem) {
  describe(`${name}: two gateway replicas, one shut down mid-rollout`, () => {
    let system: System;
    let second: RunningGateway;
    beforeEach(async () => {
      system = await make(fast);
      second = await startGateway({
        subgraphs: system.subgraphs,
        verify: staticTokens(DEV_TOKENS),
        secret: system.secret,
        cursorSecret: system.secret,
        bus: system.backends.bus,
      });
    });
    afterEach(async () => {
      await second?.dispose();
      await system?.dispose();
    });

    it('graphql-ws: the client is closed with 1001 and resumes on the other replica from its cursor', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      const sub = resumingSubscription<InstanceStatusChangedSubscription, any>(
        [system.gateway.wsUrl, second.wsUrl],
        'dev-token-a',
        InstanceStatusChangedDocument,
        { gpuSpecificationId: d.specId },
      );
      try {
        await watchA.opened(1);
        const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 400 } }))
          .updateGpuSpecification.latestRevision!;
        await waitUntil(() => sub.events.some((e) => e.instanceStatusChanged.state === 'UPDATING'), {
          what: 'rollout under way',
        });
        await system.gateway.dispose(); // SIGTERM on replica 1
        await waitRevision(httpClient(second.graphqlUrl, 'dev-token-a'), d.specId, 'APPLIED');
        await waitUntil(
          () =>
            sub.events.filter(
              (e) => e.instanceStatusChanged.state === 'ACTIVE' && e.instanceStatusChanged.revisionId === rev.id,
            ).length === 4,
          { what: 'all four ACTIVE on the new revision' },
        );
        expect(sub.reconnects()).toBe(1);
        expect(sub.closes[0]).toBe(1001);
        for (const id of d.instanceIds)
          expect(
            sub.events
              .filter((e) => e.instanceStatusChanged.instance.id === id)
              .map((e) => e.instanceStatusChanged.state),
          ).toEqual(['UPDATING', 'ACTIVE']);
        expect(new Set(sub.events.map((e) => e.instanceStatusChanged.cursor)).size).toBe(8);
        expect(sub.errors).toEqual([]);
      } finally {
        sub.dispose();
      }
    });

    it('SSE: the stream ends without complete and resumes elsewhere with Last-Event-ID', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      const first = sseRaw(system.url, 'dev-token-a', InstanceStatusChangedDocument, { gpuSpecificationId: d.specId });
      await watchA.opened(1);
      ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 400 } }));
      await waitUntil(() => first.events.length > 0, { what: 'rollout under way' });
      await system.gateway.dispose();
      await first.done;
      expect(first.events.some((e) => e.event === 'complete')).toBe(false);
      const resumed = sseRaw(
        second.graphqlUrl,
        'dev-token-a',
        InstanceStatusChangedDocument,
        { gpuSpecificationId: d.specId },
        first.lastId(),
      );
      await waitRevision(httpClient(second.graphqlUrl, 'dev-token-a'), d.specId, 'APPLIED');
      await waitUntil(() => first.events.length + resumed.events.length === 8, {
        what: 'all eight transitions across both streams',
      });
      resumed.close();
      const all = [...first.events, ...resumed.events].map((e) => e.data.data.instanceStatusChanged);
      for (const id of d.instanceIds)
        expect(all.filter((e) => e.instance.id === id).map((e) => e.state)).toEqual(['UPDATING', 'ACTIVE']);
      expect(new Set(all.map((e) => e.cursor)).size).toBe(8);
    });
  });
}

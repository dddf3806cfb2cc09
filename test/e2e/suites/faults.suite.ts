import type { System } from '@nvcf/local';
import type { SimulatedCluster } from '@nvcf/agent';
import { InstanceStatusChangedDocument, type InstanceStatusChangedSubscription } from '@nvcf/client';
import {
  httpClient,
  ok,
  deployedHelm,
  submit,
  waitRevision,
  wsSubscribe,
  watchSubscriptions,
  type Collected,
} from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

type Sub = Collected<InstanceStatusChangedSubscription>;
/** Any subscription selecting at least each event's state and instance id. */
type StatesOf = Collected<{ instanceStatusChanged: { state: string; instance: { id: string } } }>;

/** Each instance's transitions for one revision, as the subscriber saw them. */
export function transitionsOf(sub: StatesOf, instanceIds: string[]) {
  return Object.fromEntries(
    instanceIds.map((id) => [
      id,
      sub.events
        .map((e) => e.instanceStatusChanged)
        .filter((e) => e.instance.id === id)
        .map((e) => e.state),
    ]),
  );
}

export const noDuplicateCursors = (sub: Sub) =>
  new Set(sub.events.map((e) => e.instanceStatusChanged.cursor)).size === sub.events.length;

/** Faults that every backend must survive: nothing lost, nothing twice. */
export function faultsSuite(name: string, make: MakeSystem) {
  describe(`${name}: faults`, () => {
    let system: System;
    beforeAll(async () => {
      system = await make({ ...fast, agentAckWaitMs: 1500, revisionDeadlineMs: 60_000 });
    });
    afterAll(async () => system?.dispose());

    it('an agent killed mid-rollout: its successor finishes the work, every transition delivered once', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        gpuSpecificationId: d.specId,
      });
      await watchA.opened(1);
      const rev = ok(await submit(a, d.specId, { model: 'v2', nvcfSimulate: { delayMs: 800 } })).updateGpuSpecification
        .latestRevision!;
      await sub.until(
        (e) => e.filter((x) => x.instanceStatusChanged.state === 'UPDATING').length === 4,
        'every instance UPDATING',
      );
      const victim = system.clusters[0].id;
      await system.stopAgent(victim); // dies holding its update message
      await system.startAgent(victim);
      const s = await waitRevision(a, d.specId, 'APPLIED', 30_000);
      expect(s.latestRevision!.id).toBe(rev.id);
      await sub.until(
        (e) => e.filter((x) => x.instanceStatusChanged.state === 'ACTIVE').length >= 4,
        'every instance ACTIVE again',
      );
      for (const states of Object.values(transitionsOf(sub, d.instanceIds)))
        expect(states).toEqual(['UPDATING', 'ACTIVE']);
      expect(noDuplicateCursors(sub)).toBe(true);
      expect(s.instances.every((i) => i.revisionId === rev.id && i.state === 'ACTIVE')).toBe(true);
      // the victim's instances really were applied twice: once by the dead agent, once by its successor
      const driver = system.drivers.get(victim) as unknown as SimulatedCluster;
      const onVictim = s.instances.filter((i) => i.cluster.id === victim);
      expect(onVictim.length).toBeGreaterThan(0);
      for (const i of onVictim) expect(driver.attempts(i.id, rev.id)).toBe(2);
      expect(sub.errors).toEqual([]);
    });
  });
}

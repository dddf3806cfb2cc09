/** The agent itself on the Kubernetes driver: messages in on a memory bus, transitions out. */
import { createMemoryBus, type Bus, type Consumer } from '@nvcf/bus';
import { allStreams, msgIds, Streams, subjects, type StatusEvent, type UpdateInstancesMessage } from '@nvcf/contracts';
import { startAgent, type Agent, type DesiredInstance } from '../src/index.js';
import { createKubernetesDriver, type KubeClient, type KubernetesDriver } from '../src/drivers/kubernetes/index.js';
import {
  cleanupCluster,
  describeKube,
  desired,
  helm,
  miniServiceOf,
  newClusterId,
  next,
  registry,
  sharedClient,
  waitFor,
} from './kube-fixtures.js';

describeKube('agent on the kubernetes driver', () => {
  let client: KubeClient;
  let clusterId: string;
  let bus: Bus;
  let driver: KubernetesDriver;
  let agent: Agent;
  let tail: Consumer;
  const events: StatusEvent[] = [];
  const states = (instanceId: string) =>
    events.filter((e) => e.instanceId === instanceId).map((e) => `${e.state}${e.revisionId ? `@${e.revisionId}` : ''}`);

  beforeAll(() => {
    client = sharedClient();
  });
  beforeEach(async () => {
    clusterId = newClusterId();
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    events.length = 0;
    tail = await bus.tail<StatusEvent>({ stream: Streams.status.name }, (m) => {
      events.push(m.data);
    });
    driver = createKubernetesDriver({ clusterId, client, registry, pollMs: 500 });
    agent = await startAgent({ bus, driver, backoff: { initialMs: 100, maxMs: 500, factor: 2 }, log: () => {} });
  });
  afterEach(async () => {
    await agent.stop();
    await tail.stop();
    await driver.dispose();
    await bus.dispose();
    await cleanupCluster(client, clusterId);
  });

  const create = (d: DesiredInstance) =>
    bus.publish(subjects.create(clusterId), { type: 'create', ...d }, { msgId: msgIds.create(d.instanceId) });
  const update = (d: DesiredInstance, targets = [d.instanceId]) => {
    const m: UpdateInstancesMessage = { type: 'update', updateActionId: `ua-${d.revisionId}`, ...d, targets };
    return bus.publish(subjects.update(clusterId), m, { msgId: msgIds.update(m.updateActionId, clusterId) });
  };
  const until = (instanceId: string, state: string) =>
    waitFor(async () => states(instanceId).includes(state), 30_000, `${instanceId} ${state}`);

  it('create → STARTING, ACTIVE; update → UPDATING, ACTIVE on the same MiniService; a redelivery changes nothing', async () => {
    const d1 = desired(clusterId, helm({ replicas: 1 }));
    await create(d1);
    await until(d1.instanceId, `ACTIVE@${d1.revisionId}`);
    const first = await miniServiceOf(client, clusterId, d1.instanceId);
    const d2 = next(d1, helm({ replicas: 3 }));
    await update(d2);
    await until(d1.instanceId, `ACTIVE@${d2.revisionId}`);
    expect(states(d1.instanceId)).toEqual([
      'STARTING',
      `ACTIVE@${d1.revisionId}`,
      `UPDATING@${d1.revisionId}`,
      `ACTIVE@${d2.revisionId}`,
    ]);
    expect(events.filter((e) => e.instanceId === d1.instanceId).map((e) => e.previousState)).toEqual([
      null,
      'STARTING',
      'ACTIVE',
      'UPDATING',
    ]);
    // UPDATING names where it goes; the rest name no target
    expect(events.filter((e) => e.instanceId === d1.instanceId).map((e) => e.targetRevisionId ?? null)).toEqual([
      null,
      null,
      d2.revisionId,
      null,
    ]);
    const second = await miniServiceOf(client, clusterId, d1.instanceId);
    expect(second?.metadata.uid).toBe(first?.metadata.uid);
    expect(second?.metadata.generation).toBe(first!.metadata.generation! + 1);
    expect(second?.spec.values).toEqual({ replicas: 3 });
    expect(await driver.observe(d1.instanceId)).toMatchObject({
      readyRevisionId: d2.revisionId,
      reportedState: 'ACTIVE',
    });

    await update({ ...d2 }, [d1.instanceId]); // at-least-once: the same revision again, under a new action
    await new Promise((r) => setTimeout(r, 1000));
    expect(states(d1.instanceId)).toHaveLength(4);
    expect((await miniServiceOf(client, clusterId, d1.instanceId))?.metadata.generation).toBe(
      second?.metadata.generation,
    );
  });

  it('ignores an update target it does not manage: no object, no transition', async () => {
    const managed = desired(clusterId, helm({ a: 1 }));
    await create(managed);
    await until(managed.instanceId, `ACTIVE@${managed.revisionId}`);
    const stranger = desired(clusterId, helm({ a: 2 }));
    await update(next(managed, helm({ a: 2 })), [stranger.instanceId, managed.instanceId]);
    await waitFor(async () => states(managed.instanceId).length === 4, 30_000, 'the managed target updated');
    expect(states(stranger.instanceId)).toEqual([]);
    expect(await miniServiceOf(client, clusterId, stranger.instanceId)).toBeNull();
  });

  it('a schema rejection on update fails the revision at once; the instance stays ACTIVE on the one it runs', async () => {
    const d1 = desired(clusterId, helm({ a: 1 }));
    await create(d1);
    await until(d1.instanceId, `ACTIVE@${d1.revisionId}`);
    const bad = next(d1, helm({ a: 2 }, { servicePort: 0 }));
    await update(bad);
    await waitFor(async () => events.some((e) => e.failedRevisionId === bad.revisionId), 30_000, 'the failed revision');
    const last = events.filter((e) => e.instanceId === d1.instanceId).at(-1);
    expect(last).toMatchObject({
      state: 'ACTIVE',
      revisionId: d1.revisionId,
      permanent: true,
      failedRevisionId: bad.revisionId,
    });
    expect(last?.message).toMatch(
      /spec\.servicePort: Invalid value: 0: spec\.servicePort in body should be greater than or equal to 1/,
    );
  });
});

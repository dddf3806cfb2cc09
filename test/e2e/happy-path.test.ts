import { startSystem, type System } from '@nvcf/local';
import {
  FunctionVersionDocument, GpuSpecificationDocument, InstanceStatusChangedDocument, UpdateGpuSpecificationDocument,
  type InstanceStatusChangedSubscription,
} from '@nvcf/schema/generated';
import { waitUntil } from '@nvcf/testing';
import { httpClient, ok, wsSubscribe, sseSubscribe, helmFunction, deployHelm, subscriptionsOpen, type Collected } from '@nvcf/test';

type Event = InstanceStatusChangedSubscription['instanceStatusChanged'];
const events = (c: Collected<InstanceStatusChangedSubscription>) => c.events.map((e) => e.instanceStatusChanged);
const transitions = (evs: Event[], id: string) => evs.filter((e) => e.instance.id === id).map((e) => e.state);

describe('the happy path through the gateway', () => {
  let system: System;
  beforeAll(async () => { system = await startSystem({ sim: { startDelayMs: 30, updateDelayMs: 30 } }); });
  afterAll(async () => system.dispose());

  async function run(subscribe: (functionId: string) => Collected<InstanceStatusChangedSubscription>) {
    const client = httpClient(system.url, 'dev-token-a');
    const { versionId, functionId } = await helmFunction(client);
    await using sub = subscribe(functionId);
    await subscriptionsOpen(system.gateway.url, 'nca-a');

    const [specId] = await deployHelm(client, versionId);
    const deployed = await waitUntil(async () => {
      const v = ok(await client(FunctionVersionDocument, { id: versionId })).functionVersion!;
      return v.status === 'ACTIVE' && v;
    }, { what: 'version ACTIVE' });
    expect(deployed.status).toBe('ACTIVE');
    const spec = ok(await client(GpuSpecificationDocument, { id: specId! })).gpuSpecification!;
    expect(spec.instances).toHaveLength(2);
    const first = spec.lastAppliedRevision!;
    expect(first.status).toBe('APPLIED');
    expect(first.configuration).toEqual({ replicas: 1, model: 'v1' });
    const ids = spec.instances.map((i) => i.id);
    await sub.until((evs) => ids.every((id) => evs.some((e) => e.instanceStatusChanged.instance.id === id && e.instanceStatusChanged.state === 'ACTIVE')), 'both instances ACTIVE');

    // the in-place update: the whole configuration, every instance UPDATING → ACTIVE
    const updated = ok(await client(UpdateGpuSpecificationDocument, { id: specId!, input: { revision: { configuration: { replicas: 1, model: 'v2' } } } }));
    const revId = updated.updateGpuSpecification.latestRevision!.id;
    expect(revId).not.toBe(first.id);
    const applied = await waitUntil(async () => {
      const s = ok(await client(GpuSpecificationDocument, { id: specId! })).gpuSpecification!;
      return s.latestRevision?.status === 'APPLIED' && s;
    }, { what: 'revision APPLIED' });
    expect(applied.lastAppliedRevision!.id).toBe(revId);
    expect(applied.configuration).toEqual({ replicas: 1, model: 'v2' });
    expect(applied.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', revId], ['ACTIVE', revId]]);
    expect(ok(await client(FunctionVersionDocument, { id: versionId })).functionVersion!.status).toBe('ACTIVE');

    const evs = await sub.until((all) => ids.every((id) => all.some((e) => e.instanceStatusChanged.instance.id === id && e.instanceStatusChanged.revisionId === revId && e.instanceStatusChanged.state === 'ACTIVE')), 'updates observed');
    for (const id of ids) expect(transitions(events(sub), id)).toEqual(['STARTING', 'ACTIVE', 'UPDATING', 'ACTIVE']);
    const last = events(sub).filter((e) => e.instance.id === ids[0]).at(-1)!;
    expect(last.previousState).toBe('UPDATING');
    expect(last.instance.gpuSpecification.id).toBe(specId); // resolved from icms through the gateway
    expect(evs.every((e) => typeof e.instanceStatusChanged.cursor === 'string' && e.instanceStatusChanged.cursor.length > 0)).toBe(true);
  }

  it('create, deploy, update: observed over graphql-ws', async () => {
    await run((functionId) => wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, { functionId }));
  });

  it('the same, observed over SSE', async () => {
    await run((functionId) => sseSubscribe(system.url, 'dev-token-a', InstanceStatusChangedDocument, { functionId }));
  });
});

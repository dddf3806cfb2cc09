/**
 * A launch is repeated when nvcf did not get its answer (the call timed out while ICMS went on, or
 * ICMS went away part-way): the repeat keeps what the first created and creates only what is missing,
 * so no instance runs twice and none runs unrecorded.
 */
import type { CreateInstanceMessage, LaunchSpec } from '@nvcf/contracts';
import { createMemoryIcmsStore } from '../src/index.js';
import { handlersWith } from './fixtures.js';

const gpus = [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] }];

const setup = () => handlersWith<CreateInstanceMessage>(['c1', 'c2'].map((id) => ({ id, gpus, regions: ['us-east'] })));

const spec = (count: number, revisionId = 'rev-1'): LaunchSpec => ({
  ref: { ncaId: 'nca-a', functionId: 'fn', versionId: 'ver', gpuSpecificationId: 'spec' },
  placement: {
    gpu: 'L40S',
    instanceType: 'gl40s_1.br25_2xlarge',
    clusters: [],
    regions: [],
    attributes: [],
    singleTenant: false,
  },
  count,
  revisionId,
  revisionCreatedAt: '2026-01-01T00:00:00.000Z',
  workload: { kind: 'helm', chart: 'oci://r/echo-1.0.0.tgz', serviceName: 'echo', values: {} },
});

const stored = async (store: ReturnType<typeof createMemoryIcmsStore>) =>
  (await store.listInstancesBySpec(['spec']))[0].map((i) => ({ id: i.id, clusterId: i.clusterId }));

describe('a repeated launch', () => {
  it('names the same instances, stores none twice and sends their messages with the same ids', async () => {
    const { store, published, icms } = await setup();
    const first = await icms.launch('nca-a', { specs: [spec(3)] });
    const before = await stored(store);
    const firstSent = published.splice(0);
    expect(first.instances.spec).toHaveLength(3);
    expect(new Set(first.instances.spec).size).toBe(3);

    const again = await icms.launch('nca-a', { specs: [spec(3)] });
    expect(again.instances.spec.sort()).toEqual([...first.instances.spec].sort());
    expect((await stored(store)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      before.sort((a, b) => a.id.localeCompare(b.id)),
    );
    // sent again to the same clusters with the same msgIds: the work streams drop them as duplicates
    const key = (p: { subject: string; msgId?: string }) => `${p.subject} ${p.msgId}`;
    expect(published.map(key).sort()).toEqual(firstSent.map(key).sort());
  });

  it('after a launch that stored part of its instances, creates only the missing ones', async () => {
    const { store, icms } = await setup();
    const part = await icms.launch('nca-a', { specs: [spec(1)] });
    const whole = await icms.launch('nca-a', { specs: [spec(4)] });
    expect(whole.instances.spec).toHaveLength(4);
    expect(whole.instances.spec).toEqual(expect.arrayContaining(part.instances.spec));
    expect(await stored(store)).toHaveLength(4);
  });

  it("does not count another revision's instances of the same specification", async () => {
    const { store, icms } = await setup();
    const old = await icms.launch('nca-a', { specs: [spec(2, 'rev-0')] });
    const next = await icms.launch('nca-a', { specs: [spec(2, 'rev-1')] });
    expect(next.instances.spec.filter((id) => old.instances.spec.includes(id))).toEqual([]);
    expect(await stored(store)).toHaveLength(4);
  });
});

describe('whether a spec has an instance request ICMS accepted', () => {
  it('answers alike with and without the count of live instances, and never to another tenant', async () => {
    const { icms } = await setup();
    const ask = (tenant: string, liveInstances?: boolean) =>
      icms.accepted(tenant, { gpuSpecificationId: 'spec', ...(liveInstances === undefined ? {} : { liveInstances }) });
    expect(await ask('nca-a', false)).toEqual({ accepted: false });
    expect(await ask('nca-a')).toEqual({ accepted: false, liveInstances: 0 });
    await icms.launch('nca-a', { specs: [spec(3)] });
    expect(await ask('nca-a', false)).toEqual({ accepted: true });
    expect(await ask('nca-a')).toEqual({ accepted: true, liveInstances: 3 });
    expect(await ask('nca-b', false)).toEqual({ accepted: false });
    expect(await ask('nca-b')).toEqual({ accepted: false, liveInstances: 0 });
  });
});

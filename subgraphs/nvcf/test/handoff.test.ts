/**
 * A revision submitted while ICMS is unavailable is stored PENDING and handed off once ICMS answers:
 * accepted, not lost, not failed by a deadline it has not started.
 */
import { fail } from '@nvcf/errors';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { createMemoryNvcfStore } from '../src/index.js';
import { Nvcf } from '../src/nvcf.js';
import { updateGpuSpecification } from '../src/updates.js';
import { retryHandoffs } from '../src/handoff.js';
import { deployFunctionVersion } from '../src/deploy.js';
import { undeployFunctionVersion } from '../src/undeploy.js';
import type { IcmsClient } from '../src/icms-client.js';
import type { Revision, VersionRecord } from '../src/model.js';
import { specOf } from './fixtures.js';

const created = '2026-01-01T00:00:00.000Z';
const version: VersionRecord = {
  id: 'ver',
  functionId: 'fn',
  ncaId: 'nca-a',
  status: 'ACTIVE',
  workloadType: 'HELM',
  helmChart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz',
  helmChartServiceName: 'echo',
  inferenceUrl: '/v1/infer',
  inferencePort: 8000,
  deploymentId: 'dep',
  createdAt: created,
};
const spec = specOf(1);
const first: Revision = { id: 'r1', specId: 'spec', status: 'APPLIED', configuration: {}, createdAt: created };

/** ICMS behind a switch: unavailable (the registry code an unreachable ICMS gives), refusing, or up. */
function switchableIcms() {
  const calls: string[] = [];
  const icms = {
    mode: 'down' as 'down' | 'up' | 'refusing',
    calls,
    client: {
      accepted: async () => {
        calls.push('accepted');
        if (icms.mode === 'down') throw fail('UNAVAILABLE', 'internal call accepted failed: fetch failed; retry later');
        return { accepted: true, liveInstances: 1 };
      },
      update: async (_t, input) => {
        calls.push(`update ${input.revisionId}`);
        if (icms.mode === 'refusing') throw fail('FORBIDDEN', 'update for another tenant');
        return { updateActionId: `ua-${input.revisionId}`, targets: ['i1'] };
      },
      launch: async (_t, input) => {
        calls.push(`launch ${input.specs.map((x) => x.ref.gpuSpecificationId).join(',')}`);
        if (icms.mode === 'down') throw fail('UNAVAILABLE', 'internal call launch failed: timeout; retry later');
        if (icms.mode === 'refusing') throw fail('NO_ELIGIBLE_CLUSTER', 'no cluster offers L40S');
        return { instances: Object.fromEntries(input.specs.map((x) => [x.ref.gpuSpecificationId, ['i1', 'i2']])) };
      },
      terminate: async () => ({ terminated: 0 }),
    } as IcmsClient,
  };
  return icms;
}

async function setup() {
  const store = createMemoryNvcfStore();
  await store.putVersion(version);
  await store.putDeployment(
    { id: 'dep', versionId: 'ver', ncaId: 'nca-a', specIds: ['spec'], createdAt: created },
    [spec],
    [{ specId: 'spec', latest: first, lastApplied: first }],
  );
  const icms = switchableIcms();
  const nvcf = new Nvcf(
    store,
    icms.client,
    loadRegistry(defaultRegistryPath()),
    { maxConfigurationBytes: 65536 },
    60_000,
  );
  const latest = async () => (await store.getRevisions(['spec']))[0].latest!;
  return { store, icms, nvcf, latest };
}

describe('hand-off to ICMS through an ICMS outage', () => {
  it('an update submitted while ICMS is down is accepted PENDING, waits without a deadline, and rolls out once ICMS answers', async () => {
    const { icms, nvcf, latest } = await setup();
    await updateGpuSpecification(nvcf, 'nca-a', 'spec', { revision: { configuration: { model: 'v2' } } });
    const pending = await latest();
    expect(pending).toMatchObject({ status: 'PENDING', deadline: null, configuration: { model: 'v2' } });

    // the outage goes on: a day later the sweep has failed nothing and sent nothing
    const later = Date.now() + 86_400_000;
    expect(await nvcf.rollouts.sweepDeadlines(later)).toBe(0);
    expect(await retryHandoffs(nvcf, later)).toBe(0);
    expect(await latest()).toEqual(pending);
    expect(icms.calls.filter((c) => c.startsWith('update'))).toEqual([]);

    icms.mode = 'up';
    // a fresh revision is left to its own hand-off; only one older than a few seconds is retried
    expect(await retryHandoffs(nvcf, Date.parse(pending.createdAt) + 1000)).toBe(0);
    const before = Date.now();
    expect(await retryHandoffs(nvcf, later)).toBe(1);
    const rolling = await latest();
    expect(rolling).toMatchObject({
      id: pending.id,
      status: 'ROLLING_OUT',
      targets: ['i1'],
      updateActionId: `ua-${pending.id}`,
    });
    // its deadline counts from the hand-off
    expect(Date.parse(rolling.deadline!)).toBeGreaterThanOrEqual(before + 60_000);
    expect(icms.calls.filter((c) => c.startsWith('update'))).toEqual([`update ${pending.id}`]);
  });

  it('a hand-off ICMS refuses for a reason of its own fails the revision with that reason', async () => {
    const { icms, nvcf, latest } = await setup();
    icms.mode = 'refusing';
    await updateGpuSpecification(nvcf, 'nca-a', 'spec', { revision: { configuration: { model: 'v3' } } });
    expect(await latest()).toMatchObject({
      status: 'FAILED',
      failureReason: 'ICMS did not accept the update: update for another tenant',
    });
  });
});

describe('a launch ICMS did not answer', () => {
  /** version 'new' of the setup's tenant, not deployed yet, deployed while ICMS is down */
  async function deployedDuringOutage() {
    const t = await setup();
    await t.store.putVersion({ ...version, id: 'new', deploymentId: null, status: 'INACTIVE' });
    const d = await deployFunctionVersion(t.nvcf, 'nca-a', 'new', {
      gpuSpecifications: [{ gpu: 'L40S', instanceType: 't', minInstances: 2, maxInstances: 2 }],
    });
    const [specId] = d.specIds;
    const pair = async () => (await t.store.getRevisions([specId]))[0];
    const status = async () => (await t.store.getVersions(['new']))[0]!.status;
    return { ...t, d, specId, pair, status };
  }

  it('is stored PENDING without a deadline and launched by the sweep once ICMS answers', async () => {
    const { icms, nvcf, specId, pair, status } = await deployedDuringOutage();
    const pending = (await pair()).latest!;
    expect(pending).toMatchObject({ status: 'PENDING', launch: true, deadline: null });
    expect(await status()).toBe('DEPLOYING');

    const later = Date.parse(pending.createdAt) + 86_400_000;
    expect(await nvcf.rollouts.sweepDeadlines(later)).toBe(0);
    expect(await retryHandoffs(nvcf, later)).toBe(0);
    expect((await pair()).latest).toEqual(pending);

    icms.mode = 'up';
    // not repeated while the lost call may still be running in ICMS
    expect(await retryHandoffs(nvcf, Date.parse(pending.createdAt) + 10_000)).toBe(0);
    const before = Date.now();
    expect(await retryHandoffs(nvcf, later)).toBe(1);
    const rolling = (await pair()).latest!;
    expect(rolling).toMatchObject({ id: pending.id, status: 'ROLLING_OUT', targets: ['i1', 'i2'] });
    expect(rolling.launch).toBeUndefined();
    expect(Date.parse(rolling.deadline!)).toBeGreaterThanOrEqual(before + 60_000);
    // one launch at the mutation, one by the sweep: the down ones of the outage are the others
    expect(icms.calls.filter((c) => c === `launch ${specId}`).length).toBeGreaterThanOrEqual(2);
    expect(await retryHandoffs(nvcf, later)).toBe(0);
  });

  it('fails the revision and the version when ICMS refuses it once it answers', async () => {
    const { icms, nvcf, pair, status } = await deployedDuringOutage();
    icms.mode = 'refusing';
    expect(await retryHandoffs(nvcf, Date.now() + 86_400_000)).toBe(1);
    expect((await pair()).latest).toMatchObject({
      status: 'FAILED',
      failureReason: 'ICMS did not accept the launch: no cluster offers L40S',
    });
    expect(await status()).toBe('ERROR');
  });

  it('is not launched once its version was undeployed', async () => {
    const { icms, nvcf, pair } = await deployedDuringOutage();
    icms.mode = 'up';
    await undeployFunctionVersion(nvcf, 'nca-a', 'new', true);
    icms.calls.splice(0);
    expect(await retryHandoffs(nvcf, Date.now() + 86_400_000)).toBe(1);
    expect((await pair()).latest).toMatchObject({ status: 'FAILED' });
    expect(icms.calls.filter((c) => c.startsWith('launch'))).toEqual([]);
  });

  it('a launch ICMS refuses at once is still refused to the caller, and nothing is stored', async () => {
    const t = await setup();
    t.icms.mode = 'refusing';
    await t.store.putVersion({ ...version, id: 'new', deploymentId: null, status: 'INACTIVE' });
    await expect(
      deployFunctionVersion(t.nvcf, 'nca-a', 'new', {
        gpuSpecifications: [{ gpu: 'L40S', instanceType: 't', minInstances: 1, maxInstances: 1 }],
      }),
    ).rejects.toMatchObject({ extensions: { code: 'NO_ELIGIBLE_CLUSTER' } });
    expect((await t.store.getVersions(['new']))[0]).toMatchObject({ deploymentId: null, status: 'INACTIVE' });
  });
});

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
      launch: async () => ({ instances: {} }),
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

import { randomUUID } from 'node:crypto';
import type { ClusterRecord, IcmsStore, InstanceRecord, UpdateActionRecord } from '../src/index.js';

// Fresh ids in every test: the Cassandra runner shares one keyspace across tests and runs.
const id = (kind: string) => `${kind}-${randomUUID()}`;
const at = '2026-01-01T00:00:00.000Z';
const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));

const cluster = (patch: Partial<ClusterRecord> = {}): ClusterRecord => ({
  id: id('cluster'),
  name: 'c',
  ncaId: id('nca'),
  authorizedNcaIds: ['t1', 't2'],
  attributes: ['NIMOperatorSupport'],
  gpus: [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] }],
  regions: ['us-east'],
  dedicatedTo: null,
  ...patch,
});
const instance = (patch: Partial<InstanceRecord> = {}): InstanceRecord => ({
  id: id('inst'),
  ncaId: 'nca',
  functionId: 'fn',
  versionId: id('ver'),
  gpuSpecificationId: id('spec'),
  clusterId: id('cluster'),
  launchRevisionId: 'rev0',
  state: 'REQUESTED',
  revisionId: null,
  clock: 0,
  singleTenant: false,
  createdAt: at,
  updatedAt: at,
  ...patch,
});

/** The IcmsStore contract: memory and Cassandra must both pass it unchanged. */
export function icmsStoreContract(name: string, make: () => Promise<IcmsStore>) {
  describe(`${name}: icms store`, () => {
    let store: IcmsStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => store.dispose());

    it('reads clusters back in request order, null for missing, and lists every cluster', async () => {
      const [a, b] = [cluster(), cluster({ dedicatedTo: 'tenant-x' })];
      await store.putCluster(a);
      await store.putCluster(b);
      expect(await store.getClusters([b.id, id('cluster'), a.id])).toEqual([b, null, a]);
      const listed = (await store.listClusters()).filter((c) => c.id === a.id || c.id === b.id);
      expect(byId(listed)).toEqual(byId([a, b]));
      await store.putCluster({ ...a, name: 'renamed' });
      expect((await store.getClusters([a.id]))[0]?.name).toBe('renamed');
    });

    it('keeps GPU capacity, node labels and the GPUs workloads hold, and reads records written without them unchanged', async () => {
      const gpus = [
        {
          name: 'H100',
          instanceTypes: ['gh100_8.br20_16xlarge'],
          capacity: 16,
          gpusPerInstance: { 'gh100_8.br20_16xlarge': 8 },
          nodeSelectors: { 'gh100_8.br20_16xlarge': { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' } },
        },
      ];
      // cluster(), instance() and a task without `gpus`: what ICMS stored before capacity was modelled
      const [sized, old] = [cluster({ gpus }), cluster()];
      await store.putCluster(sized);
      await store.putCluster(old);
      expect(await store.getClusters([sized.id, old.id])).toEqual([sized, old]);
      expect((await store.getClusters([old.id]))[0]?.gpus[0]).not.toHaveProperty('capacity');
      const clusterId = id('cluster');
      const [holding, before] = [instance({ clusterId, gpus: { name: 'H100', count: 8 } }), instance({ clusterId })];
      await store.putInstances([holding, before]);
      expect(byId(await store.listInstancesByCluster(clusterId))).toEqual(byId([holding, before]));
      const task = { id: id('task'), ncaId: 't1', clusterId, singleTenant: false, ended: false, createdAt: at };
      await store.putTask({ ...task, gpus: { name: 'H100', count: 1 } });
      expect(await store.getTask(task.id)).toEqual({ ...task, gpus: { name: 'H100', count: 1 } });
    });

    it('moves the single-tenant lock only from the expected holder', async () => {
      const c = cluster();
      await store.putCluster(c);
      expect(await store.setDedication(c.id, null, 't1')).toBe(true);
      expect(await store.setDedication(c.id, null, 't2')).toBe(false);
      expect(await store.setDedication(c.id, 't2', null)).toBe(false);
      expect((await store.getClusters([c.id]))[0]).toEqual({ ...c, dedicatedTo: 't1' });
      expect(await store.setDedication(c.id, 't1', null)).toBe(true);
      expect((await store.getClusters([c.id]))[0]?.dedicatedTo ?? null).toBeNull();
      const unknown = id('cluster');
      expect(await store.setDedication(unknown, null, 't1')).toBe(false);
      expect(await store.getClusters([unknown])).toEqual([null]);
    });

    it('gives a free cluster to exactly one of 10 racing tenants', async () => {
      const c = cluster();
      await store.putCluster(c);
      const tenants = Array.from({ length: 10 }, (_, i) => `tenant-${i}`);
      const won = await Promise.all(tenants.map((t) => store.setDedication(c.id, null, t)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await store.getClusters([c.id]))[0]?.dedicatedTo).toBe(tenants[won.indexOf(true)]);
    });

    it('keeps the tasks placed on a cluster and their ends, an end stored before its placement too', async () => {
      const c = id('cluster');
      const task = { ncaId: 't1', clusterId: c, singleTenant: true, ended: false, createdAt: at };
      const [a, b] = [
        { ...task, id: id('task') },
        { ...task, id: id('task'), singleTenant: false },
      ];
      await store.putTask(a);
      expect(await store.getTask(a.id)).toEqual(a);
      expect(await store.getTask(b.id)).toBeNull();
      // b's end overtook its placement: not listed until placed, and ended once it is
      await store.endTask(b.id);
      expect(await store.getTask(b.id)).toBeNull();
      await store.putTask(b);
      await store.endTask(a.id);
      expect(byId(await store.listTasksByCluster(c))).toEqual(byId([a, b].map((t) => ({ ...t, ended: true }))));
      expect(await store.listTasksByCluster(id('cluster'))).toEqual([]);
    });

    it('reads instances by id, spec, version and cluster', async () => {
      const [spec, version, clusterId] = [id('spec'), id('ver'), id('cluster')];
      const a = instance({ gpuSpecificationId: spec, versionId: version, clusterId });
      const b = instance({ gpuSpecificationId: spec, versionId: version, singleTenant: true });
      const c = instance({ clusterId });
      await store.putInstances([a, b, c]);
      expect(await store.getInstances([c.id, id('inst'), a.id])).toEqual([c, null, a]);
      const [ofSpec, none, ofC] = await store.listInstancesBySpec([spec, id('spec'), c.gpuSpecificationId]);
      expect(byId(ofSpec)).toEqual(byId([a, b]));
      expect(none).toEqual([]);
      expect(ofC).toEqual([c]);
      expect(byId(await store.listInstancesByVersion(version))).toEqual(byId([a, b]));
      expect(byId(await store.listInstancesByCluster(clusterId))).toEqual(byId([a, c]));
      expect(await store.listInstancesByCluster(id('cluster'))).toEqual([]);
    });

    it('records a state only when its clock is newer, and never for an unknown instance', async () => {
      const i = instance();
      await store.putInstances([i]);
      const t = Date.now() * 1000;
      await store.recordState(i.id, 'STARTING', null, t, '2026-01-01T00:00:01.000Z');
      await store.recordState(i.id, 'ACTIVE', 'rev1', t + 5, '2026-01-01T00:00:02.000Z');
      // an older one redelivered late, and the newest one again (at-least-once): neither changes it
      await store.recordState(i.id, 'FAILED', null, t + 1, '2026-01-01T00:00:03.000Z');
      await store.recordState(i.id, 'ACTIVE', 'rev1', t + 5, '2026-01-01T00:00:02.000Z');
      const expected = {
        ...i,
        state: 'ACTIVE',
        revisionId: 'rev1',
        clock: t + 5,
        updatedAt: '2026-01-01T00:00:02.000Z',
      };
      expect(await store.getInstances([i.id])).toEqual([expected]);
      expect(await store.listInstancesBySpec([i.gpuSpecificationId])).toEqual([[expected]]);
      const unknown = id('inst');
      await store.recordState(unknown, 'ACTIVE', null, t, at);
      expect(await store.getInstances([unknown])).toEqual([null]);
    });

    it('ends with the newest of many concurrent state reports', async () => {
      const i = instance();
      await store.putInstances([i]);
      const t = Date.now() * 1000;
      const clocks = Array.from({ length: 12 }, (_, n) => t + ((n * 5) % 12));
      await Promise.all(clocks.map((clock) => store.recordState(i.id, 'ACTIVE', `rev${clock}`, clock, at)));
      expect((await store.getInstances([i.id]))[0]).toMatchObject({ clock: t + 11, revisionId: `rev${t + 11}` });
    });

    it("names a specification's tenant from any of its instances, and none for a spec without any", async () => {
      const spec = id('spec');
      expect(await store.specTenant(spec)).toBeNull();
      await store.putInstances([
        instance({ gpuSpecificationId: spec, ncaId: 'tenant-a' }),
        instance({ ncaId: 'tenant-b' }),
      ]);
      await store.putInstances([instance({ gpuSpecificationId: spec, ncaId: 'tenant-a' })]);
      expect(await store.specTenant(spec)).toBe('tenant-a');
    });

    it('remembers accepted specifications', async () => {
      const spec = id('spec');
      expect(await store.isAccepted(spec)).toBe(false);
      await store.markAccepted(spec);
      await store.markAccepted(spec);
      expect(await store.isAccepted(spec)).toBe(true);
      expect(await store.isAccepted(id('spec'))).toBe(false);
    });

    it('lists update actions per spec, newest first', async () => {
      const [s1, s2] = [id('spec'), id('spec')];
      const action = (spec: string, n: number): UpdateActionRecord => ({
        id: id('ua'),
        ncaId: 'nca',
        gpuSpecificationId: spec,
        revisionId: `rev${n}`,
        targets: [`i${n}`],
        createdAt: at,
      });
      const [a1, a2, b1, a3] = [action(s1, 1), action(s1, 2), action(s2, 1), action(s1, 3)];
      for (const a of [a1, a2, b1, a3]) await store.putUpdateAction(a);
      expect(await store.listUpdateActions([s2, id('spec'), s1])).toEqual([[b1], [], [a3, a2, a1]]);
      expect(await store.listUpdateActions([s1, s1])).toEqual([
        [a3, a2, a1],
        [a3, a2, a1],
      ]);
    });
  });
}

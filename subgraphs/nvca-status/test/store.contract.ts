import { randomUUID } from 'node:crypto';
import type { InstanceStatus, StatusStore } from '../src/index.js';

// Fresh ids in every test: the Cassandra runner shares one keyspace across tests and runs.
const id = (kind: string) => `${kind}-${randomUUID()}`;
const byInstance = (xs: InstanceStatus[]) => [...xs].sort((a, b) => a.instanceId.localeCompare(b.instanceId));

/** The StatusStore contract: memory and Cassandra must both pass it unchanged. */
export function statusStoreContract(name: string, make: () => Promise<StatusStore>) {
  describe(`${name}: nvca-status store`, () => {
    let store: StatusStore;
    let t: number;
    let seq = 0;
    const status = (patch: Partial<InstanceStatus> = {}): InstanceStatus => ({
      instanceId: id('inst'),
      ncaId: 'nca',
      functionId: 'fn',
      versionId: 'ver',
      gpuSpecificationId: 'spec',
      clusterId: 'c1',
      state: 'STARTING',
      revisionId: null,
      updatedAt: new Date(Math.floor(t / 1000)).toISOString(),
      clock: t,
      seq: ++seq,
      ...patch,
    });
    beforeEach(async () => {
      store = await make();
      t = Date.now() * 1000; // the agents' clock: wall-clock microseconds
    });
    afterEach(async () => store.dispose());

    it('keeps the newest status per instance, whatever order statuses arrive in', async () => {
      const first = status();
      await store.record(first);
      const newer = { ...first, state: 'ACTIVE' as const, revisionId: 'r1', clock: t + 10, seq: first.seq + 1 };
      await store.record(newer);
      // an older one redelivered late, and the newest one again (at-least-once): neither changes it
      await store.record({ ...first, state: 'FAILED', clock: t + 5 });
      await store.record(newer);
      expect(await store.get([first.instanceId])).toEqual([newer]);
      // the newest first, then an older one
      const other = status();
      const otherNewest = { ...other, state: 'ACTIVE' as const, clock: t + 9, seq: other.seq + 1 };
      await store.record(otherNewest);
      await store.record(other);
      expect(await store.get([other.instanceId])).toEqual([otherNewest]);
    });

    it('reads statuses back in request order, null for unknown instances', async () => {
      const [a, b] = [status(), status({ state: 'ACTIVE', revisionId: 'r9' })];
      await store.record(a);
      await store.record(b);
      expect(await store.get([b.instanceId, id('inst'), a.instanceId, b.instanceId])).toEqual([b, null, a, b]);
      expect(await store.get([])).toEqual([]);
    });

    it("lists only the tenant's instances, narrowed by function, version, spec or instance", async () => {
      const [nca, other] = [id('nca'), id('nca')];
      const [fnA, fnB] = [id('fn'), id('fn')];
      const a1 = status({ ncaId: nca, functionId: fnA, versionId: 'vA1', gpuSpecificationId: 'sA1' });
      const a2 = status({ ncaId: nca, functionId: fnA, versionId: 'vA2', gpuSpecificationId: 'sA2' });
      const b1 = status({ ncaId: nca, functionId: fnB, versionId: 'vB1', gpuSpecificationId: 'sA1' });
      const foreign = status({ ncaId: other, functionId: fnA, versionId: 'vA1', gpuSpecificationId: 'sA1' });
      for (const s of [a1, a2, b1, foreign]) await store.record(s);

      expect(byInstance(await store.list(nca, {}))).toEqual(byInstance([a1, a2, b1]));
      expect(byInstance(await store.list(nca, { functionId: fnA }))).toEqual(byInstance([a1, a2]));
      expect(await store.list(nca, { versionId: 'vA2' })).toEqual([a2]);
      expect(byInstance(await store.list(nca, { gpuSpecificationId: 'sA1' }))).toEqual(byInstance([a1, b1]));
      expect(await store.list(nca, { functionId: fnA, gpuSpecificationId: 'sA1' })).toEqual([a1]);
      expect(await store.list(nca, { functionId: fnB, versionId: 'vA1' })).toEqual([]);
      expect(await store.list(nca, { instanceId: b1.instanceId })).toEqual([b1]);
      expect(await store.list(nca, { instanceId: b1.instanceId, functionId: fnA })).toEqual([]);
      // another tenant's instance stays invisible, even when asked for by id
      expect(await store.list(nca, { instanceId: foreign.instanceId })).toEqual([]);
      expect(await store.list(other, { functionId: null, versionId: null })).toEqual([foreign]);
      expect(await store.list(id('nca'), {})).toEqual([]);
    });

    it('lists each instance once, at its latest state', async () => {
      const nca = id('nca');
      const s = status({ ncaId: nca });
      await store.record(s);
      await store.record({ ...s, state: 'ACTIVE', clock: t + 1 });
      await store.record({ ...s, state: 'UPDATING', revisionId: 'r2', clock: t + 2 });
      expect(await store.list(nca, {})).toEqual([{ ...s, state: 'UPDATING', revisionId: 'r2', clock: t + 2 }]);
    });

    it('keeps the revision an UPDATING instance moves to, and a row without one reads as before', async () => {
      const nca = id('nca');
      const s = status({ ncaId: nca, state: 'ACTIVE', revisionId: 'r1' });
      await store.record(s); // a row as recorded before targetRevisionId existed: no such field
      expect((await store.get([s.instanceId]))[0]?.targetRevisionId ?? null).toBeNull();
      const updating = { ...s, state: 'UPDATING' as const, targetRevisionId: 'r2', clock: t + 1 };
      await store.record(updating);
      expect((await store.get([s.instanceId]))[0]).toMatchObject({
        state: 'UPDATING',
        revisionId: 'r1',
        targetRevisionId: 'r2',
      });
      expect((await store.list(nca, {}))[0]?.targetRevisionId).toBe('r2');
      await store.record({ ...s, state: 'ACTIVE', revisionId: 'r2', targetRevisionId: null, clock: t + 2 });
      expect((await store.get([s.instanceId]))[0]).toMatchObject({
        state: 'ACTIVE',
        revisionId: 'r2',
        targetRevisionId: null,
      });
    });

    it('ends with the newest of many concurrent events for one instance', async () => {
      const s = status();
      const clocks = Array.from({ length: 12 }, (_, n) => t + ((n * 7) % 12));
      await Promise.all(
        clocks.map((clock) => store.record({ ...s, clock, seq: clock - t, revisionId: `r${clock - t}` })),
      );
      expect(await store.get([s.instanceId])).toEqual([{ ...s, clock: t + 11, seq: 11, revisionId: 'r11' }]);
    });

    it('keeps the returned rows apart from the stored ones', async () => {
      const s = status();
      await store.record(s);
      const [got] = await store.get([s.instanceId]);
      got!.state = 'FAILED';
      expect((await store.get([s.instanceId]))[0]?.state).toBe('STARTING');
    });
  });
}

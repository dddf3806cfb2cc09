import { randomUUID } from 'node:crypto';
import { describeCassandra, migratedClient } from '@nvcf/cassandra/test/harness';
import { keyspaceName, type CassandraClient } from '@nvcf/cassandra';
import { createCassandraStatusStore, type InstanceStatus } from '../src/index.js';
import { statusStoreContract } from './store.contract.js';

describeCassandra('cassandra', () => {
  let client: CassandraClient;
  beforeAll(async () => {
    client = await migratedClient('nvca_status');
  });
  afterAll(async () => client?.dispose());

  statusStoreContract('cassandra', async () => createCassandraStatusStore(client));

  describe('the indexed columns, written once per instance', () => {
    const t = Date.now() * 1000;
    const status = (instanceId: string, functionId: string, patch: Partial<InstanceStatus> = {}): InstanceStatus => ({
      instanceId,
      ncaId: 'nca-w',
      functionId,
      versionId: 'ver-w',
      gpuSpecificationId: 'spec-w',
      clusterId: 'c1',
      state: 'STARTING',
      revisionId: null,
      updatedAt: new Date(Math.floor(t / 1000)).toISOString(),
      clock: t,
      seq: 1,
      ...patch,
    });
    const writeTimes = async (instanceId: string) => {
      const rs = await client.execute(
        `SELECT WRITETIME(nca_id) AS ids, WRITETIME(doc) AS doc FROM ${keyspaceName('nvca_status')}.instance_status WHERE instance_id = ?`,
        [instanceId],
        { prepare: true },
      );
      const row = rs.first();
      return { ids: Number(row.get('ids')), doc: Number(row.get('doc')) };
    };

    it('are written with the first event a store applies, and found by them after later events', async () => {
      const store = createCassandraStatusStore(client);
      const [inst, fn] = [`inst-${randomUUID()}`, `fn-${randomUUID()}`];
      await store.record(status(inst, fn));
      await store.record(status(inst, fn, { state: 'ACTIVE', revisionId: 'r1', clock: t + 10, seq: 2 }));
      await store.record(status(inst, fn, { state: 'UPDATING', revisionId: 'r1', clock: t + 20, seq: 3 }));
      // the later events wrote what changes, not the indexed columns
      expect(await writeTimes(inst)).toEqual({ ids: t, doc: t + 20 });
      const listed = await store.list('nca-w', { functionId: fn });
      expect(listed.map((s) => [s.instanceId, s.state, s.clock])).toEqual([[inst, 'UPDATING', t + 20]]);
      await store.dispose();
    });

    it('are written again by a store that has not seen the instance (a restarted process), whatever the order', async () => {
      const [inst, fn] = [`inst-${randomUUID()}`, `fn-${randomUUID()}`];
      const before = createCassandraStatusStore(client);
      await before.record(status(inst, fn, { state: 'ACTIVE', clock: t + 50, seq: 5 }));
      await before.dispose();
      // the new process's first event for it is an older one, redelivered: it loses, the row stays whole
      const after = createCassandraStatusStore(client);
      await after.record(status(inst, fn, { state: 'STARTING', clock: t + 1, seq: 1 }));
      const [got] = await after.list('nca-w', { functionId: fn, gpuSpecificationId: 'spec-w', versionId: 'ver-w' });
      expect([got.instanceId, got.state, got.clock]).toEqual([inst, 'ACTIVE', t + 50]);
      expect(await writeTimes(inst)).toEqual({ ids: t + 50, doc: t + 50 });
      await after.dispose();
    });
  });
});

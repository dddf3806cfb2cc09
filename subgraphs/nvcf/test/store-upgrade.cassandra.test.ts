import { randomBytes } from 'node:crypto';
import { MIGRATIONS_DIR, cassandraConnection, describeCassandra } from '@nvcf/cassandra/test/harness';
import { createCassandraClient, createMigrator, types, type CassandraClient } from '@nvcf/cassandra';
import { createCassandraNvcfStore } from '../src/index.js';
import type { InstanceObservation } from '../src/model.js';

// nvcf_api 1 kept instance states in one partition per GPU specification, written by compare-and-set;
// 2 keys them per instance, written at the event's clock. The upgrade must keep every instance's state.
describeCassandra('nvcf_api upgrade 1 → 2 (instance_states → instance_observations)', () => {
  const suffix = `_upg${randomBytes(4).toString('hex')}`;
  const ks = `nvcf_api${suffix}`;
  let admin: CassandraClient;
  beforeAll(async () => {
    admin = await createCassandraClient(cassandraConnection());
  });
  afterAll(async () => {
    await admin.execute(`DROP KEYSPACE IF EXISTS ${ks}`);
    await admin.execute('DELETE FROM schema_migrations.ledger WHERE keyspace_name = ?', [ks], { prepare: true });
    await admin.dispose();
  });

  it('moves every instance state, keeping its clock as the newest-wins order', async () => {
    await using migrator = await createMigrator({
      ...cassandraConnection(),
      dir: MIGRATIONS_DIR,
      keyspaces: ['nvcf_api'],
      keyspaceSuffix: suffix,
    });
    await migrator.goto(ks, 1, { expect: 0 });

    // what version 1 stored: two specs, more rows than one page of the copy
    const t = Date.now() * 1000;
    const specs = ['spec-a', 'spec-b'];
    const before: { specId: string; obs: InstanceObservation }[] = Array.from({ length: 1203 }, (_, n) => ({
      specId: specs[n % 2],
      obs: {
        instanceId: `inst-${n}`,
        state: n % 3 === 0 ? 'UPDATING' : 'ACTIVE',
        revisionId: `r${n % 5}`,
        targetRevisionId: n % 3 === 0 ? 'r9' : null,
        clock: t + n,
        failedRevisionId: null,
        message: null,
      },
    }));
    const insertV1 = `INSERT INTO ${ks}.instance_states (spec_id, instance_id, clock, doc) VALUES (?, ?, ?, ?) IF NOT EXISTS`;
    for (let i = 0; i < before.length; i += 100)
      await Promise.all(
        before
          .slice(i, i + 100)
          .map(({ specId, obs }) =>
            admin.execute(insertV1, [specId, obs.instanceId, obs.clock, JSON.stringify(obs)], { prepare: true }),
          ),
      );

    expect((await migrator.goto(ks, 2, { expect: 1 })).map((m) => m.file)).toEqual(['002_instance_observations.cql']);
    expect((await migrator.status())[0]).toMatchObject({ version: 2, dirty: false, pending: [] });

    await using client = await createCassandraClient({ ...cassandraConnection(), keyspace: ks });
    const store = createCassandraNvcfStore(client, { keyspace: ks });
    const byId = (l: InstanceObservation[]) => [...l].sort((a, b) => a.instanceId.localeCompare(b.instanceId));
    for (const spec of specs)
      expect(byId(await store.instanceStates(spec))).toEqual(
        byId(before.filter((b) => b.specId === spec).map((b) => b.obs)),
      );

    // the copied rows carry their clock as write timestamp: an older event loses, a newer one wins
    const [first, second] = [before[0], before[1]];
    await store.recordInstance(first.specId, { ...first.obs, state: 'FAILED', clock: first.obs.clock - 1 });
    const newer: InstanceObservation = { ...second.obs, state: 'TERMINATED', clock: second.obs.clock + 1 };
    await store.recordInstance(second.specId, newer);
    const [a] = (await store.instanceStates(first.specId)).filter((o) => o.instanceId === first.obs.instanceId);
    const [b] = (await store.instanceStates(second.specId)).filter((o) => o.instanceId === second.obs.instanceId);
    expect(a).toEqual(first.obs);
    expect(b).toEqual(newer);
    const wt = await client.execute(
      `SELECT WRITETIME(doc) AS wt FROM ${ks}.instance_observations WHERE instance_id = ?`,
      [first.obs.instanceId],
      { prepare: true },
    );
    expect((wt.first().get('wt') as types.Long).toString()).toBe(String(first.obs.clock));
  });
});

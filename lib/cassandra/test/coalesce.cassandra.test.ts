import { randomBytes } from 'node:crypto';
import { coalescedWriter, createCassandraClient, types } from '../src/index.js';
import { cassandraConnection, describeCassandra } from './harness.js';

describeCassandra('coalescedWriter on Cassandra', () => {
  it('stores out-of-order writes of one turn in batches, the newest clock winning per row', async () => {
    await using client = await createCassandraClient(cassandraConnection());
    const ks = `coalesce_${randomBytes(3).toString('hex')}`;
    await client.execute(
      `CREATE KEYSPACE ${ks} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
    );
    try {
      await client.execute(`CREATE TABLE ${ks}.t (id text PRIMARY KEY, clock bigint, doc text)`);
      const q = `UPDATE ${ks}.t USING TIMESTAMP ? SET clock = ?, doc = ? WHERE id = ?`;
      const sent = { execute: 0, batch: 0 };
      const counted = {
        execute: ((...a: Parameters<typeof client.execute>) => (
          sent.execute++,
          client.execute(...a)
        )) as typeof client.execute,
        batch: ((...a: Parameters<typeof client.batch>) => (sent.batch++, client.batch(...a))) as typeof client.batch,
      };
      const w = coalescedWriter(counted, { maxStatements: 16 });
      // 40 rows, 10 clocks each, newest first for half of them and in a shuffled order for the rest
      const writes: [string, number][] = [];
      for (let r = 0; r < 40; r++)
        for (let c = 1; c <= 10; c++) writes.push([`row-${r}`, r % 2 ? 11 - c : ((c * 7) % 10) + 1]);
      const doc = 'x'.repeat(200);
      await Promise.all(writes.map(([id, c]) => w.write(q, [types.Long.fromNumber(c * 1000), c, `${doc}${c}`, id])));
      const rows = (await client.execute(`SELECT id, clock, doc, WRITETIME(doc) AS wt FROM ${ks}.t`)).rows;
      expect(rows).toHaveLength(40);
      for (const row of rows) {
        expect(Number(row.get('clock'))).toBe(10);
        expect(row.get('doc')).toBe(`${doc}10`);
        expect(Number(row.get('wt'))).toBe(10_000);
      }
      // 400 rows in one turn, 16 a batch: 25 requests, not 400
      expect(sent).toEqual({ execute: 0, batch: 25 });
    } finally {
      await client.execute(`DROP KEYSPACE ${ks}`);
    }
  });
});

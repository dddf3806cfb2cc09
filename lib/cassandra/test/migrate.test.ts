import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  createCassandraClient,
  createMigrator,
  MigrationFailed,
  MigrationRefused,
  type CassandraClient,
  type Migrator,
} from '../src/index.js';
import { cassandraConnection, describeCassandra } from './harness.js';

const TABLE = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (k text PRIMARY KEY, v text);\n`;

describeCassandra('migration runner (Cassandra)', () => {
  let admin: CassandraClient;
  let root: string;
  const made: string[] = [];

  beforeAll(async () => {
    admin = await createCassandraClient(cassandraConnection());
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  });
  afterAll(async () => {
    for (const ks of made) {
      await admin.execute(`DROP KEYSPACE IF EXISTS ${ks}`);
      await admin.execute('DELETE FROM schema_migrations.ledger WHERE keyspace_name = ?', [ks], { prepare: true });
    }
    await admin?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A throwaway keyspace with its own migrations folder: `files` maps NNN_name.cql to CQL. */
  function fixture(files: Record<string, string>): {
    ks: string;
    open: (log?: (l: string) => void) => Promise<Migrator>;
  } {
    const ks = `mig_test_${randomBytes(5).toString('hex')}`;
    made.push(ks);
    const dir = path.join(root, ks);
    fs.mkdirSync(path.join(dir, ks), { recursive: true });
    for (const [name, cql] of Object.entries(files)) fs.writeFileSync(path.join(dir, ks, name), cql);
    return { ks, open: (log) => createMigrator({ ...cassandraConnection(), dir, log }) };
  }
  const tables = async (ks: string) =>
    (
      await admin.execute('SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?', [ks], {
        prepare: true,
      })
    ).rows
      .map((r) => r.get('table_name') as string)
      .sort();
  const ledgerOf = async (m: Migrator) => {
    const [s] = await m.status();
    return { version: s.version, dirty: s.dirty };
  };

  it('applies every file in order from an empty keyspace, then re-runs as a no-op', async () => {
    const { ks, open } = fixture({
      '001_first.cql': TABLE('a'),
      // 002 depends on 001 and uses a `;` inside a literal, which must not split the statement
      '002_second.cql': `${TABLE('b')}-- a comment line;\nINSERT INTO a (k, v) VALUES ('x', 'semi;colon');\n`,
    });
    await using m = await open();
    expect(await m.status()).toEqual([{ keyspace: ks, version: 0, dirty: false, latest: 2, pending: [1, 2] }]);
    expect((await m.up()).map((a) => a.version)).toEqual([1, 2]);
    expect(await m.status()).toEqual([{ keyspace: ks, version: 2, dirty: false, latest: 2, pending: [] }]);
    expect(await tables(ks)).toEqual(['a', 'b']);
    const row = await admin.execute(`SELECT v FROM ${ks}.a WHERE k = 'x'`);
    expect(row.first()?.get('v')).toBe('semi;colon');

    expect(await m.up()).toEqual([]);
    await using again = await open();
    expect(await again.up()).toEqual([]);
    expect(await ledgerOf(again)).toEqual({ version: 2, dirty: false });
  });

  it('goto moves exactly to the target and refuses an unexpected, backward or unknown move', async () => {
    const { ks, open } = fixture({ '001_a.cql': TABLE('a'), '002_b.cql': TABLE('b'), '003_c.cql': TABLE('c') });
    await using m = await open();
    expect((await m.goto(ks, 1, { expect: 0 })).map((a) => a.version)).toEqual([1]);

    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'applied',
        (e: unknown) => (e instanceof MigrationRefused ? e.reason : e),
      );
    expect(await refusal(m.goto(ks, 3, { expect: 0 }))).toBe('unexpected-version');
    expect(await refusal(m.goto(ks, 0, { expect: 1 }))).toBe('backward');
    expect(await refusal(m.goto(ks, 7, { expect: 1 }))).toBe('unknown-target');
    expect(await refusal(m.goto('mig_test_nowhere', 1, { expect: 0 }))).toBe('unknown-keyspace');
    expect(await ledgerOf(m)).toEqual({ version: 1, dirty: false });
    expect(await tables(ks)).toEqual(['a']);

    expect((await m.goto(ks, 2, { expect: 1 })).map((a) => a.version)).toEqual([2]);
    expect(await m.goto(ks, 2, { expect: 2 })).toEqual([]);
    expect(await m.status()).toEqual([{ keyspace: ks, version: 2, dirty: false, latest: 3, pending: [3] }]);
    expect(await tables(ks)).toEqual(['a', 'b']);
  });

  it('a failing file leaves the ledger dirty at its version, stops, and blocks up and goto', async () => {
    const { ks, open } = fixture({
      '001_a.cql': TABLE('a'),
      '002_broken.cql': `${TABLE('b')}CREATE TABLE oops (;\n${TABLE('never')}`,
      '003_c.cql': TABLE('c'),
    });
    await using m = await open();
    const err = await m.up().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationFailed);
    expect(err).toMatchObject({ name: 'MigrationFailed', keyspace: ks, version: 2 });
    expect((err as Error).message).toMatch(/002_broken\.cql: statement 2 failed/);
    expect((err as Error).cause).toBeDefined();
    expect(await ledgerOf(m)).toEqual({ version: 2, dirty: true });
    expect(await tables(ks)).toEqual(['a', 'b']); // statement 1 ran, nothing after the failure did

    await expect(m.up()).rejects.toMatchObject({ name: 'MigrationRefused', reason: 'dirty' });
    await expect(m.goto(ks, 3, { expect: 2 })).rejects.toMatchObject({ name: 'MigrationRefused', reason: 'dirty' });
    expect(await tables(ks)).toEqual(['a', 'b']);
  });

  it('goto stops at the first failing file on its way to the target', async () => {
    const { ks, open } = fixture({
      '001_a.cql': TABLE('a'),
      '002_bad.cql': 'SELECT nonsense FROM nowhere;\n',
      '003_c.cql': TABLE('c'),
    });
    await using m = await open();
    await m.goto(ks, 1, { expect: 0 });
    await expect(m.goto(ks, 3, { expect: 1 })).rejects.toMatchObject({ name: 'MigrationFailed', version: 2 });
    expect(await ledgerOf(m)).toEqual({ version: 2, dirty: true });
    expect(await tables(ks)).toEqual(['a']);
  });

  it('two runners racing on one keyspace apply each file exactly once', async () => {
    const { ks, open } = fixture({ '001_a.cql': TABLE('a'), '002_b.cql': TABLE('b'), '003_c.cql': TABLE('c') });
    const applied: string[] = [];
    const log = (line: string) => void (/applied/.test(line) && applied.push(line));
    await using one = await open(log);
    await using two = await open(log);
    const outcomes = await Promise.allSettled([one.up(), two.up()]);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(MigrationRefused);
    expect(applied.map((l) => /(\d+)_/.exec(l)![1]).sort()).toEqual(['001', '002', '003']);
    await using after = await open();
    await after.up(); // whoever lost stopped early; nothing is left pending or dirty
    expect(await ledgerOf(after)).toEqual({ version: 3, dirty: false });
    expect(await tables(ks)).toEqual(['a', 'b', 'c']);
  });
});

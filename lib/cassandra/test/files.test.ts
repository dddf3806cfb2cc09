import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  loadMigrations,
  MigrationFileError,
  parseCopyRows,
  parseReplication,
  replicationCql,
  splitStatements,
} from '../src/index.js';

describe('migration files', () => {
  it('splits statements at line-ending semicolons and drops comment lines', () => {
    const text =
      "-- header;\nCREATE TABLE t (\n  k text PRIMARY KEY\n);\n\nINSERT INTO t (k) VALUES ('a;b')\n;\n// done\nSELECT * FROM t";
    expect(splitStatements(text)).toEqual([
      'CREATE TABLE t (\n  k text PRIMARY KEY\n)',
      "INSERT INTO t (k) VALUES ('a;b')",
      'SELECT * FROM t',
    ]);
  });

  it('loads per keyspace in version order and rejects bad names and duplicate versions', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mig-files-'));
    try {
      fs.mkdirSync(path.join(dir, 'ks_one'));
      fs.writeFileSync(path.join(dir, 'ks_one', '010_later.cql'), 'SELECT 1;\n');
      fs.writeFileSync(path.join(dir, 'ks_one', '002_sooner.cql'), 'SELECT 2;\n');
      fs.writeFileSync(path.join(dir, 'ks_one', 'README.md'), 'ignored');
      expect(
        loadMigrations(dir)
          .get('ks_one')!
          .map((m) => [m.version, m.file]),
      ).toEqual([
        [2, '002_sooner.cql'],
        [10, '010_later.cql'],
      ]);

      fs.writeFileSync(path.join(dir, 'ks_one', '02_clash.cql'), '');
      expect(() => loadMigrations(dir)).toThrow(MigrationFileError);
      fs.rmSync(path.join(dir, 'ks_one', '02_clash.cql'));
      fs.writeFileSync(path.join(dir, 'ks_one', 'nonumber.cql'), '');
      expect(() => loadMigrations(dir)).toThrow(/expected NNN_name\.cql/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('renders replication for a local node and for production', () => {
    expect(replicationCql(parseReplication('SimpleStrategy:1'))).toBe(
      "{'class': 'SimpleStrategy', 'replication_factor': 1}",
    );
    expect(replicationCql(parseReplication('NetworkTopologyStrategy:dc1=3,dc2=3'))).toBe(
      "{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3}",
    );
    expect(() => parseReplication("NetworkTopologyStrategy:dc1'=3")).toThrow(TypeError);
    expect(() => parseReplication('SimpleStrategy:0')).toThrow(TypeError);
  });

  it('reads a COPY ROWS data step and refuses a malformed one', () => {
    expect(parseCopyRows('CREATE TABLE t (k text PRIMARY KEY)')).toBeNull();
    expect(parseCopyRows('COPY ROWS FROM old (k, Clock, doc)\n  TO new USING TIMESTAMP clock')).toEqual({
      from: 'old',
      to: 'new',
      columns: ['k', 'clock', 'doc'],
      timestampColumn: 'clock',
    });
    expect(parseCopyRows('copy rows from a (k) to b')).toEqual({ from: 'a', to: 'b', columns: ['k'] });
    expect(() => parseCopyRows('COPY ROWS FROM a (k) TO b USING TIMESTAMP clock')).toThrow(
      /USING TIMESTAMP clock is not one of the copied columns/,
    );
    expect(() => parseCopyRows('COPY ROWS FROM a (k, v-1) TO b')).toThrow(/not plain column names/);
    expect(() => parseCopyRows('COPY ROWS a TO b')).toThrow(MigrationFileError);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-'));
    try {
      fs.mkdirSync(path.join(dir, 'ks'));
      fs.writeFileSync(path.join(dir, 'ks', '001_a.cql'), 'CREATE TABLE a (k text PRIMARY KEY);\nCOPY ROWS a TO b;\n');
      expect(() => loadMigrations(dir)).toThrow(/ks\/001_a.cql: not a COPY ROWS step/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

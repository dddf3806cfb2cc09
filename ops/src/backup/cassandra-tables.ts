/**
 * A logical copy of a table over CQL: no JMX, no `nodetool snapshot`, nothing on the nodes' disks,
 * so it works the same against one local node and a managed ring.
 *
 * Each row is one JSON line: `{"key": {col: json}, "cells": {col: {"json", "writetime", "ttl"?}}}`.
 * Values are CQL's own JSON (`toJson`, read back with `fromJson`), kept as text so a bigint or a
 * decimal never passes through a JavaScript number. Every regular and static cell keeps its write
 * timestamp: the stores resolve some tables newest-by-timestamp (`USING TIMESTAMP <clock>`), so a
 * restored cell must lose to a newer write and win over an older one exactly as the original did.
 * A restore writes each row once per distinct (timestamp, TTL) of its cells.
 */
import { createWriteStream, createReadStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { eachRow, types, type Client } from '@nvcf/cassandra';
import { BackupFailed, type ColumnEntry } from './manifest.js';

export interface RowLine {
  key: Record<string, string>;
  cells: Record<string, { json: string; writetime: string; ttl?: number }>;
}

const KINDS = ['partition_key', 'clustering', 'static', 'regular'] as const;
const isKey = (c: ColumnEntry) => c.kind === 'partition_key' || c.kind === 'clustering';
// a non-frozen collection has a timestamp per element: it is restored at its newest one
const multiCell = (c: ColumnEntry) => /^(list|set|map)</.test(c.type);
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function tablesOf(client: Client, keyspace: string): Promise<string[]> {
  const rs = await client.execute('SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?', [keyspace], {
    prepare: true,
  });
  return rs.rows.map((r) => r.get('table_name') as string).sort();
}

/** The table's columns, keys first in key order, then the rest by name. */
export async function columnsOf(client: Client, keyspace: string, table: string): Promise<ColumnEntry[]> {
  const rs = await client.execute(
    'SELECT column_name, kind, type, position FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?',
    [keyspace, table],
    { prepare: true },
  );
  const cols = rs.rows.map((r) => ({
    name: r.get('column_name') as string,
    kind: r.get('kind') as ColumnEntry['kind'],
    type: r.get('type') as string,
    position: r.get('position') as number,
  }));
  cols.sort(
    (a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || a.position - b.position || (a.name < b.name ? -1 : 1),
  );
  return cols.map(({ name, kind, type }) => ({ name, kind, type }));
}

/** Writes every row of `keyspace.table` to `file` (paged); resolves with how many. */
export async function exportTable(
  client: Client,
  keyspace: string,
  table: string,
  columns: ColumnEntry[],
  file: string,
): Promise<number> {
  const keys = columns.filter(isKey);
  const cells = columns.filter((c) => !isKey(c));
  const select = [
    ...columns.map((c) => `toJson(${quote(c.name)})`),
    ...cells.map((c) => `${multiCell(c) ? 'maxwritetime' : 'writetime'}(${quote(c.name)})`),
    ...cells.map((c) => (multiCell(c) ? 'null' : `ttl(${quote(c.name)})`)),
  ];
  const query = `SELECT ${select.join(', ')} FROM ${quote(keyspace)}.${quote(table)}`;
  const out = createWriteStream(file);
  let rows = 0;
  try {
    for await (const row of eachRow(client, query, [], 500)) {
      const line: RowLine = { key: {}, cells: {} };
      keys.forEach((c, i) => (line.key[c.name] = row.get(i) as string));
      cells.forEach((c, i) => {
        const json = row.get(keys.length + i) as string | null;
        const at = row.get(columns.length + i) as types.Long | null;
        if (json === null || json === 'null' || at === null) return;
        const ttl = row.get(columns.length + cells.length + i) as number | null;
        line.cells[c.name] = { json, writetime: at.toString(), ...(ttl ? { ttl } : {}) };
      });
      if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
      rows++;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return rows;
}

const WINDOW = 64;

/** Writes every row of `file` into `keyspace.table`, each cell at its own timestamp; resolves with how many rows. */
export async function importTable(client: Client, keyspace: string, table: string, file: string): Promise<number> {
  const target = `${quote(keyspace)}.${quote(table)}`;
  const statement = (cols: string[], at: boolean, ttl: boolean) =>
    `INSERT INTO ${target} (${cols.map(quote).join(', ')}) VALUES (${cols.map(() => 'fromJson(?)').join(', ')})` +
    (at ? ` USING TIMESTAMP ?${ttl ? ' AND TTL ?' : ''}` : '');

  const writes = (line: RowLine) => {
    // a partition holding only static cells is read with null clustering columns: they are not written
    const keyCols = Object.keys(line.key).filter((c) => line.key[c] !== null && line.key[c] !== 'null');
    const keyValues = keyCols.map((c) => line.key[c]);
    const groups = new Map<string, { at: string; ttl?: number; cols: string[] }>();
    for (const [col, cell] of Object.entries(line.cells)) {
      const g = `${cell.writetime}/${cell.ttl ?? 0}`;
      if (!groups.has(g)) groups.set(g, { at: cell.writetime, ttl: cell.ttl, cols: [] });
      groups.get(g)!.cols.push(col);
    }
    // a row of keys alone (no cell to take a timestamp from) is written at the time of the restore
    if (groups.size === 0) return [{ query: statement(keyCols, false, false), params: keyValues }];
    return [...groups.values()].map((g) => ({
      query: statement([...keyCols, ...g.cols], true, g.ttl !== undefined),
      params: [
        ...keyValues,
        ...g.cols.map((c) => line.cells[c].json),
        types.Long.fromString(g.at),
        ...(g.ttl !== undefined ? [g.ttl] : []),
      ],
    }));
  };

  let rows = 0;
  let pending: Promise<unknown>[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const text of lines) {
    if (!text) continue;
    let line: RowLine;
    try {
      line = JSON.parse(text) as RowLine;
    } catch (err) {
      throw new BackupFailed(`${file}: line ${rows + 1} is not JSON`, { cause: err });
    }
    for (const w of writes(line)) pending.push(client.execute(w.query, w.params, { prepare: true }));
    rows++;
    if (pending.length >= WINDOW) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  return rows;
}

/** True when any table of the keyspace holds a row. */
export async function holdsRows(client: Client, keyspace: string): Promise<boolean> {
  for (const t of await tablesOf(client, keyspace)) {
    const rs = await client.execute(`SELECT * FROM ${quote(keyspace)}.${quote(t)} LIMIT 1`);
    if (rs.rowLength > 0) return true;
  }
  return false;
}

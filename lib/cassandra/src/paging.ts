import type { Client, types } from 'cassandra-driver';

export type Row = types.Row;
export type Params = unknown[];

const PREPARED = { prepare: true } as const;
const DEFAULT_FETCH = 500;
/** IN lists beyond this are split: one query per chunk, run together (coordinator fan-out stays bounded). */
const MAX_IN = 200;

/** Every row of a query, one page at a time, so large partitions never land in one response. */
export async function* eachRow(
  client: Client,
  query: string,
  params: Params,
  fetchSize = DEFAULT_FETCH,
): AsyncGenerator<Row> {
  let pageState: string | undefined;
  do {
    const rs = await client.execute(query, params, { ...PREPARED, fetchSize, pageState });
    yield* rs.rows;
    pageState = rs.pageState ?? undefined;
  } while (pageState);
}

export async function selectAll(
  client: Client,
  query: string,
  params: Params = [],
  fetchSize?: number,
): Promise<Row[]> {
  const out: Row[] = [];
  for await (const row of eachRow(client, query, params, fetchSize)) out.push(row);
  return out;
}

/**
 * Loads rows by key with `... WHERE key IN ?` (bound as the only or last parameter) and answers
 * in input order, null where nothing (or nothing readable) was found: dataloader relies on both.
 */
export async function selectByKeys<T>(
  client: Client,
  query: string,
  keys: readonly string[],
  keyOf: (row: Row) => string,
  read: (row: Row) => T | null,
  params: Params = [],
): Promise<(T | null)[]> {
  const unique = [...new Set(keys)];
  const found = new Map<string, T>();
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += MAX_IN) chunks.push(unique.slice(i, i + MAX_IN));
  await Promise.all(
    chunks.map(async (chunk) => {
      for (const row of await selectAll(client, query, [...params, chunk])) {
        const value = read(row);
        if (value !== null) found.set(keyOf(row), value);
      }
    }),
  );
  // a fresh copy per position: two callers asking for the same id must not share an object
  const handedOut = new Set<string>();
  return keys.map((k) => {
    const value = found.get(k);
    if (value === undefined) return null;
    if (handedOut.has(k)) return structuredClone(value);
    handedOut.add(k);
    return value;
  });
}

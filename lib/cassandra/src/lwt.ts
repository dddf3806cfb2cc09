import type { Client, types } from 'cassandra-driver';
import { LwtContention } from './errors.js';
import type { Params } from './paging.js';

export interface Statement {
  query: string;
  params: Params;
}

const PREPARED = { prepare: true } as const;

/** Runs a conditional statement; true when Paxos applied it. */
export async function applied(client: Client, query: string, params: Params): Promise<boolean> {
  return (await client.execute(query, params, PREPARED)).wasApplied();
}

/** The existing row's clock in a not-applied LWT result; null when there was no row. */
function storedClock(rs: types.ResultSet): number | null {
  const v = rs.first()?.get('clock') as types.Long | number | null | undefined;
  if (v === null || v === undefined) return null;
  return typeof v === 'number' ? v : v.toNumber();
}

/**
 * Newest-by-clock upsert of one row. `update` must end in `IF clock < ?` and `insert` in
 * `IF NOT EXISTS`. The update goes first because almost every observation is of a row
 * that already exists, so the common case costs one Paxos round; the insert covers the
 * first observation. A lost insert race loops back to the update against the winner's clock.
 */
export async function writeIfNewer(
  client: Client,
  clock: number,
  update: Statement,
  insert: Statement,
  rounds = 5,
): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    const u = await client.execute(update.query, update.params, PREPARED);
    if (u.wasApplied()) return true;
    if (storedClock(u) !== null) return false; // the stored clock is >= ours
    const ins = await client.execute(insert.query, insert.params, PREPARED);
    if (ins.wasApplied()) return true;
    const theirs = storedClock(ins);
    if (theirs !== null && theirs >= clock) return false;
  }
  throw new LwtContention(`no decision after ${rounds} compare-and-set rounds (clock ${clock})`);
}

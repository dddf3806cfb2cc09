import type { Client } from 'cassandra-driver';
import type { Params } from './paging.js';

const PREPARED = { prepare: true } as const;

/** Runs a conditional statement; true when Paxos applied it. */
export async function applied(client: Client, query: string, params: Params): Promise<boolean> {
  return (await client.execute(query, params, PREPARED)).wasApplied();
}

import { eachRow, keyspaceName, selectAll, selectByKeys, type Client, type Row } from '@nvcf/cassandra';
import { OPEN_STATUSES, type TaskRecord } from '../model.js';
import { unannounced } from '../lifecycle.js';
import type { TaskStore } from './types.js';

export interface CassandraTaskStoreOptions {
  /** default nvct_api; the schema comes from deploy/migrations/nvct_api */
  keyspace?: string;
  /** shut the client down on dispose (default false: whoever created the client owns it) */
  closeClient?: boolean;
}

const P = { prepare: true } as const;
const read = (r: Row) => JSON.parse(r.get('doc') as string) as TaskRecord;
// null, not 0, once announced: the index then holds only the few tasks still to announce
const pending = (t: TaskRecord) => (unannounced(t) ? 1 : null);
/** ids read from the tenant's list per round of document loads */
const LIST_BATCH = 100;

/** nvct's store on Cassandra; expects `migrate up` to have created the keyspace. */
export function createCassandraTaskStore(client: Client, opts: CassandraTaskStoreOptions = {}): TaskStore {
  const ks = keyspaceName(opts.keyspace ?? 'nvct_api');
  const Q = {
    create: `INSERT INTO ${ks}.tasks (id, nca_id, status, seq, unannounced, doc) VALUES (?, ?, ?, ?, ?, ?) IF NOT EXISTS`,
    index: `INSERT INTO ${ks}.tasks_by_tenant (nca_id, created_at, id) VALUES (?, ?, ?)`,
    get: `SELECT id, doc FROM ${ks}.tasks WHERE id IN ?`,
    // every change of a task is a compare-and-set on its transition counter: a cancel, a deadline and
    // an agent's report racing each other leave exactly one winner
    // in the same write as the transition: a task is listed unannounced exactly while it is
    replace: `UPDATE ${ks}.tasks SET status = ?, seq = ?, unannounced = ?, doc = ? WHERE id = ? IF seq = ?`,
    byStatus: `SELECT doc FROM ${ks}.tasks WHERE status = ?`,
    unannounced: `SELECT doc FROM ${ks}.tasks WHERE unannounced = 1`,
    page: `SELECT id FROM ${ks}.tasks_by_tenant WHERE nca_id = ?`,
    pageAfter: `SELECT id FROM ${ks}.tasks_by_tenant WHERE nca_id = ? AND (created_at, id) < (?, ?)`,
  };
  const dispose = async () => {
    if (opts.closeClient) await client.shutdown();
  };
  const get = (ids: readonly string[]) => selectByKeys(client, Q.get, ids, (r) => r.get('id') as string, read);

  return {
    async create(t) {
      // the list entry first: a task whose entry is missing would be invisible to `tasks`, while an
      // entry without a task (a failed insert) is skipped by the list
      await client.execute(Q.index, [t.ncaId, t.createdAt, t.id], P);
      const rs = await client.execute(Q.create, [t.id, t.ncaId, t.status, t.seq, pending(t), JSON.stringify(t)], P);
      if (!rs.wasApplied()) throw new Error(`task ${t.id} exists`);
    },
    get,
    async list(ncaId, { status, limit, after }) {
      const out: TaskRecord[] = [];
      const [q, params] = after ? [Q.pageAfter, [ncaId, after.createdAt, after.id]] : [Q.page, [ncaId]];
      let ids: string[] = [];
      const flush = async () => {
        for (const t of await get(ids)) if (t && (!status || t.status === status) && out.length < limit) out.push(t);
        ids = [];
      };
      for await (const row of eachRow(client, q, params, LIST_BATCH)) {
        ids.push(row.get('id') as string);
        if (ids.length === LIST_BATCH) await flush();
        if (out.length >= limit) return out;
      }
      await flush();
      return out;
    },
    async replace(expectedSeq, t) {
      const rs = await client.execute(
        Q.replace,
        [t.status, t.seq, pending(t), JSON.stringify(t), t.id, expectedSeq],
        P,
      );
      return rs.wasApplied();
    },
    async listOpen() {
      const lists = await Promise.all(OPEN_STATUSES.map((s) => selectAll(client, Q.byStatus, [s])));
      return lists.flat().map(read);
    },
    async listUnannounced() {
      return (await selectAll(client, Q.unannounced)).map(read);
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

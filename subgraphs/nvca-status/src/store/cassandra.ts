import {
  coalescedWriter,
  keyspaceName,
  selectAll,
  selectByKeys,
  types,
  WrittenKeys,
  type Client,
  type Row,
} from '@nvcf/cassandra';
import type { InstanceStatus, StatusFilter, StatusStore } from './types.js';
import { matches } from '@nvcf/status-stream';

export interface CassandraStatusStoreOptions {
  /** default nvca_status; the schema comes from deploy/migrations/nvca_status */
  keyspace?: string;
  /** shut the client down on dispose (default false: whoever created the client owns it) */
  closeClient?: boolean;
}

// The whole status is the JSON in `doc`; the columns beside it exist only to be queried. So a
// field nothing queries by (targetRevisionId) needs no migration, and rows written before it
// existed simply read without it.
const read = (r: Row) => JSON.parse(r.get('doc') as string) as InstanceStatus;

// filter field -> indexed column; the query ANDs the SAI indexes of whichever are set
const FILTER_COLUMNS = [
  ['functionId', 'function_id'],
  ['versionId', 'version_id'],
  ['gpuSpecificationId', 'spec_id'],
] as const satisfies readonly (readonly [keyof StatusFilter, string])[];

/** nvca-status's store on Cassandra; expects `migrate up` to have created the keyspace. */
export function createCassandraStatusStore(client: Client, opts: CassandraStatusStoreOptions = {}): StatusStore {
  const ks = keyspaceName(opts.keyspace ?? 'nvca_status');
  const Q = {
    // the event's clock (microseconds) is the write timestamp: newest wins on every replica, no Paxos
    put:
      `UPDATE ${ks}.instance_status USING TIMESTAMP ? SET nca_id = ?, function_id = ?, version_id = ?, spec_id = ?, ` +
      'clock = ?, doc = ? WHERE instance_id = ?',
    // the same without the indexed columns, which never change for an instance (see WrittenKeys)
    putState: `UPDATE ${ks}.instance_status USING TIMESTAMP ? SET clock = ?, doc = ? WHERE instance_id = ?`,
    get: `SELECT instance_id, doc FROM ${ks}.instance_status WHERE instance_id IN ?`,
    one: `SELECT doc FROM ${ks}.instance_status WHERE instance_id = ?`,
  };
  // status reports arrive by the hundred and each is an order-free write: batched
  const reports = coalescedWriter(client);
  const written = new WrittenKeys();
  const dispose = async () => {
    if (opts.closeClient) await client.shutdown();
  };

  async function list(ncaId: string, filter: StatusFilter): Promise<InstanceStatus[]> {
    let rows: Row[];
    if (filter.instanceId) {
      rows = await selectAll(client, Q.one, [filter.instanceId]);
    } else {
      const set = FILTER_COLUMNS.filter(([field]) => filter[field]);
      const where = ['nca_id = ?', ...set.map(([, col]) => `${col} = ?`)].join(' AND ');
      rows = await selectAll(client, `SELECT doc FROM ${ks}.instance_status WHERE ${where}`, [
        ncaId,
        ...set.map(([field]) => filter[field]),
      ]);
    }
    // the tenant check is what keeps another tenant's instance out of an instanceId lookup
    return rows.map(read).filter((s) => s.ncaId === ncaId && matches(filter, s));
  }

  return {
    async record(s) {
      const at = types.Long.fromNumber(s.clock);
      const doc = JSON.stringify(s);
      const ids = [s.ncaId, s.functionId, s.versionId, s.gpuSpecificationId];
      await written.write(
        s.instanceId,
        () => reports.write(Q.put, [at, ...ids, s.clock, doc, s.instanceId]),
        () => reports.write(Q.putState, [at, s.clock, doc, s.instanceId]),
      );
    },
    get: (ids) => selectByKeys(client, Q.get, ids, (r) => r.get('instance_id') as string, read),
    list,
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

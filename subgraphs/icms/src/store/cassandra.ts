import { coalescedWriter, keyspaceName, selectAll, selectByKeys, types, type Client, type Row } from '@nvcf/cassandra';
import type { IcmsStore } from './types.js';
import type { ClusterRecord, InstanceRecord, TaskPlacementRecord, UpdateActionRecord } from '../model.js';

export interface CassandraIcmsStoreOptions {
  /** default icms_api; the schema comes from deploy/migrations/icms_api */
  keyspace?: string;
  /** shut the client down on dispose (default false: whoever created the client owns it) */
  closeClient?: boolean;
}

const P = { prepare: true } as const;
const json = (v: unknown) => JSON.stringify(v);
const parse = <T>(v: unknown): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);
const str = (r: Row, col: string) => r.get(col) as string;
const num = (v: unknown) => (typeof v === 'number' ? v : (v as types.Long).toNumber());

function readCluster(r: Row): ClusterRecord | null {
  const c = parse<ClusterRecord>(r.get('doc'));
  const operators = parse<ClusterRecord['operators']>(r.get('operators'));
  return c && { ...c, dedicatedTo: r.get('dedicated_to') as string | null, ...(operators ? { operators } : {}) };
}

// state, revisionId, clock and updatedAt live in columns (moved by recordState); the rest in doc
function readInstance(r: Row): InstanceRecord | null {
  const i = parse<InstanceRecord>(r.get('doc'));
  if (!i) return null;
  return {
    ...i,
    state: str(r, 'state') as InstanceRecord['state'],
    revisionId: r.get('revision_id') as string | null,
    clock: num(r.get('clock')),
    updatedAt: str(r, 'updated_at'),
  };
}

// an end stored before its placement has no doc: no placement yet
function readTask(r: Row): TaskPlacementRecord | null {
  const t = parse<TaskPlacementRecord>(r.get('doc'));
  return t && { ...t, ended: r.get('ended') === true };
}

/** ICMS's store on Cassandra; expects `migrate up` to have created the keyspace. */
export function createCassandraIcmsStore(client: Client, opts: CassandraIcmsStoreOptions = {}): IcmsStore {
  const ks = keyspaceName(opts.keyspace ?? 'icms_api');
  const instanceCols = 'id, state, revision_id, clock, updated_at, doc';
  const Q = {
    putCluster: `INSERT INTO ${ks}.clusters (id, dedicated_to, doc) VALUES (?, ?, ?)`,
    listClusters: `SELECT id, dedicated_to, operators, doc FROM ${ks}.clusters`,
    getClusters: `SELECT id, dedicated_to, operators, doc FROM ${ks}.clusters WHERE id IN ?`,
    // the report's clock (microseconds) is the write timestamp: the newest report wins in any order
    setOperatorReport: `UPDATE ${ks}.clusters USING TIMESTAMP ? SET operators = ? WHERE id = ?`,
    // `doc != null`: `dedicated_to = null` alone would hold for (and create) a cluster that does not exist
    setDedication: `UPDATE ${ks}.clusters SET dedicated_to = ? WHERE id = ? IF dedicated_to = ? AND doc != null`,
    // written at the launch record's own clock (0), below every agent's report: whatever order the
    // launch and the first reports reach the replicas in, and on a retried launch, the reports win
    putInstance:
      `INSERT INTO ${ks}.instances (id, spec_id, version_id, cluster_id, state, revision_id, clock, updated_at, doc) ` +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?',
    getInstances: `SELECT ${instanceCols} FROM ${ks}.instances WHERE id IN ?`,
    bySpec: `SELECT ${instanceCols} FROM ${ks}.instances WHERE spec_id = ?`,
    anyOfSpec: `SELECT ${instanceCols} FROM ${ks}.instances WHERE spec_id = ? LIMIT 1`,
    byVersion: `SELECT ${instanceCols} FROM ${ks}.instances WHERE version_id = ?`,
    byCluster: `SELECT ${instanceCols} FROM ${ks}.instances WHERE cluster_id = ?`,
    // the report's clock (microseconds) is the write timestamp: newest wins on every replica, no Paxos;
    // an unknown instance gets state cells but no doc, and reads as missing
    recordState: `UPDATE ${ks}.instances USING TIMESTAMP ? SET state = ?, revision_id = ?, clock = ?, updated_at = ? WHERE id = ?`,
    // the placement and the end are separate cells: an end that overtook its placement stays
    putTask: `UPDATE ${ks}.tasks SET cluster_id = ?, doc = ? WHERE id = ?`,
    endTask: `UPDATE ${ks}.tasks SET ended = true WHERE id = ?`,
    getTask: `SELECT ended, doc FROM ${ks}.tasks WHERE id = ?`,
    tasksByCluster: `SELECT ended, doc FROM ${ks}.tasks WHERE cluster_id = ?`,
    markAccepted: `INSERT INTO ${ks}.accepted_specs (spec_id) VALUES (?)`,
    isAccepted: `SELECT spec_id FROM ${ks}.accepted_specs WHERE spec_id = ?`,
    putAction: `INSERT INTO ${ks}.update_actions (spec_id, at, doc) VALUES (?, ?, ?)`,
    listActions: `SELECT spec_id, doc FROM ${ks}.update_actions WHERE spec_id IN ?`,
  };
  const exec = (q: string, params: unknown[]) => client.execute(q, params, P);
  // status reports arrive by the hundred and each is an order-free write: batched
  const reports = coalescedWriter(client);
  const instances = async (q: string, key: string) =>
    (await selectAll(client, q, [key])).map(readInstance).filter((i): i is InstanceRecord => i !== null);
  const dispose = async () => {
    if (opts.closeClient) await client.shutdown();
  };

  return {
    async putCluster(c) {
      await exec(Q.putCluster, [c.id, c.dedicatedTo ?? null, json({ ...c, operators: undefined })]);
    },
    async listClusters() {
      // clusters are few (one per compute cluster): a paged full read is the listing
      return (await selectAll(client, Q.listClusters)).map(readCluster).filter((c): c is ClusterRecord => c !== null);
    },
    getClusters: (ids) => selectByKeys(client, Q.getClusters, ids, (r) => str(r, 'id'), readCluster),
    async setDedication(clusterId, expected, next) {
      return (await exec(Q.setDedication, [next, clusterId, expected])).wasApplied();
    },

    async setOperatorReport(clusterId, report) {
      await exec(Q.setOperatorReport, [types.Long.fromNumber(report.clock), json(report), clusterId]);
    },

    async putInstances(list) {
      // separate writes, not a batch: a launch can hold more instances than a batch may carry
      await Promise.all(
        list.map((i) =>
          exec(Q.putInstance, [
            i.id,
            i.gpuSpecificationId,
            i.versionId,
            i.clusterId,
            i.state,
            i.revisionId,
            i.clock,
            i.updatedAt,
            json(i),
            types.Long.fromNumber(i.clock),
          ]),
        ),
      );
    },
    getInstances: (ids) => selectByKeys(client, Q.getInstances, ids, (r) => str(r, 'id'), readInstance),
    // SAI has no IN: one indexed query per spec, all in flight at once
    listInstancesBySpec: (specIds) => Promise.all(specIds.map((s) => instances(Q.bySpec, s))),
    async specTenant(specId) {
      const [row] = (await exec(Q.anyOfSpec, [specId])).rows;
      return (row && readInstance(row)?.ncaId) ?? null;
    },
    listInstancesByVersion: (versionId) => instances(Q.byVersion, versionId),
    listInstancesByCluster: (clusterId) => instances(Q.byCluster, clusterId),
    async recordState(id, state, revisionId, clock, at) {
      await reports.write(Q.recordState, [types.Long.fromNumber(clock), state, revisionId, clock, at, id]);
    },

    async putTask(t) {
      await exec(Q.putTask, [t.clusterId, json({ ...t, ended: undefined }), t.id]);
    },
    async endTask(id) {
      await exec(Q.endTask, [id]);
    },
    async getTask(id) {
      const [row] = (await exec(Q.getTask, [id])).rows;
      return row ? readTask(row) : null;
    },
    async listTasksByCluster(clusterId) {
      return (await selectAll(client, Q.tasksByCluster, [clusterId]))
        .map(readTask)
        .filter((t): t is TaskPlacementRecord => t !== null);
    },

    async markAccepted(specId) {
      await exec(Q.markAccepted, [specId]);
    },
    async isAccepted(specId) {
      return (await exec(Q.isAccepted, [specId])).rowLength > 0;
    },
    async putUpdateAction(a) {
      // a time UUID from this process is strictly increasing, so "newest first" is the order of storing
      await exec(Q.putAction, [a.gpuSpecificationId, types.TimeUuid.now(), json(a)]);
    },
    async listUpdateActions(specIds) {
      const bySpec = new Map<string, UpdateActionRecord[]>();
      // one query per batch; rows of each partition arrive newest first (clustering order)
      for (const r of await selectAll(client, Q.listActions, [[...new Set(specIds)]])) {
        const list = bySpec.get(str(r, 'spec_id')) ?? [];
        list.push(parse<UpdateActionRecord>(r.get('doc'))!);
        bySpec.set(str(r, 'spec_id'), list);
      }
      return specIds.map((s) => structuredClone(bySpec.get(s) ?? []));
    },

    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

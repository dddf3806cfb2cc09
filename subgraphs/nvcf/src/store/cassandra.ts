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
import type { NvcfStore } from './types.js';
import type {
  FunctionRecord,
  FunctionStatus,
  InstanceObservation,
  Revision,
  RevisionPair,
  SpecRecord,
  VersionRecord,
} from '../model.js';

export interface CassandraNvcfStoreOptions {
  /** default nvcf_api; the schema comes from deploy/migrations/nvcf_api */
  keyspace?: string;
  /** shut the client down on dispose (default false: whoever created the client owns it) */
  closeClient?: boolean;
}

const P = { prepare: true } as const;
const ALL_STATUSES: FunctionStatus[] = ['INACTIVE', 'DEPLOYING', 'ACTIVE', 'DEGRADING', 'DEGRADED', 'ERROR', 'DELETED'];
const inFlight = (r: Revision | null) => r?.status === 'PENDING' || r?.status === 'ROLLING_OUT';
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const parse = <T>(v: unknown): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);
const str = (r: Row, col: string) => r.get(col) as string;

// Rows created by an in-place UPDATE of a record that was never put have no doc: they read as missing.
const readFunction = (r: Row) => parse<FunctionRecord>(r.get('doc'));
function readVersion(r: Row): VersionRecord | null {
  const v = parse<VersionRecord>(r.get('doc'));
  if (!v) return null;
  v.status = str(r, 'status') as FunctionStatus;
  const dep = r.get('deployment_id') as string | null;
  if (dep !== null) v.deploymentId = dep;
  return v;
}
function readSpec(r: Row): SpecRecord | null {
  const s = parse<SpecRecord>(r.get('doc'));
  return s && { ...s, minInstances: r.get('min_instances') as number, maxInstances: r.get('max_instances') as number };
}
const readPair = (r: Row): RevisionPair => ({
  specId: str(r, 'spec_id'),
  latest: parse<Revision>(r.get('latest')),
  lastApplied: parse<Revision>(r.get('last_applied')),
});

/** nvcf's store on Cassandra; expects `migrate up` to have created the keyspace. */
export function createCassandraNvcfStore(client: Client, opts: CassandraNvcfStoreOptions = {}): NvcfStore {
  const ks = keyspaceName(opts.keyspace ?? 'nvcf_api');
  const Q = {
    putFunction: `INSERT INTO ${ks}.functions (id, nca_id, doc) VALUES (?, ?, ?)`,
    getFunctions: `SELECT id, doc FROM ${ks}.functions WHERE id IN ?`,
    listFunctions: `SELECT id, doc FROM ${ks}.functions WHERE nca_id = ?`,
    putVersion: `INSERT INTO ${ks}.versions (id, function_id, status, deployment_id, doc) VALUES (?, ?, ?, ?, ?)`,
    getVersions: `SELECT id, status, deployment_id, doc FROM ${ks}.versions WHERE id IN ?`,
    listVersions: `SELECT id, status, deployment_id, doc FROM ${ks}.versions WHERE function_id = ?`,
    // `IF status IN` also fails on a missing row (status is null), which is the "unknown id" answer
    setVersionStatus: `UPDATE ${ks}.versions SET status = ? WHERE id = ? IF status IN ?`,
    linkVersion: `UPDATE ${ks}.versions SET deployment_id = ? WHERE id = ?`,
    putDeployment: `INSERT INTO ${ks}.deployments (id, doc) VALUES (?, ?)`,
    getDeployments: `SELECT id, doc FROM ${ks}.deployments WHERE id IN ?`,
    putSpec: `INSERT INTO ${ks}.specs (id, min_instances, max_instances, doc) VALUES (?, ?, ?, ?)`,
    getSpecs: `SELECT id, min_instances, max_instances, doc FROM ${ks}.specs WHERE id IN ?`,
    setSpecBounds: `UPDATE ${ks}.specs SET min_instances = ?, max_instances = ? WHERE id = ?`,
    putPair: `INSERT INTO ${ks}.revisions (spec_id, latest_id, latest, last_applied, in_flight) VALUES (?, ?, ?, ?, ?)`,
    getPairs: `SELECT spec_id, latest, last_applied FROM ${ks}.revisions WHERE spec_id IN ?`,
    // one statement for both cases: `latest_id = null` holds for a missing row and for a pair without a latest
    casPair: `UPDATE ${ks}.revisions SET latest_id = ?, latest = ?, last_applied = ?, in_flight = ? WHERE spec_id = ? IF latest_id = ?`,
    inFlight: `SELECT spec_id, latest, last_applied FROM ${ks}.revisions WHERE in_flight = true`,
    // the event's clock (microseconds) is the write timestamp: newest wins on every replica, no Paxos
    obsPut: `UPDATE ${ks}.instance_observations USING TIMESTAMP ? SET spec_id = ?, clock = ?, doc = ? WHERE instance_id = ?`,
    // the same without spec_id, indexed and never changing for an instance (see WrittenKeys)
    obsPutState: `UPDATE ${ks}.instance_observations USING TIMESTAMP ? SET clock = ?, doc = ? WHERE instance_id = ?`,
    obsList: `SELECT doc FROM ${ks}.instance_observations WHERE spec_id = ?`,
  };
  const exec = (q: string, params: unknown[]) => client.execute(q, params, P);
  // status reports arrive by the hundred and each is an order-free write: batched
  const reports = coalescedWriter(client);
  const observed = new WrittenKeys();
  const pairParams = (p: Omit<RevisionPair, 'specId'>) => [
    p.latest?.id ?? null,
    json(p.latest),
    json(p.lastApplied),
    inFlight(p.latest),
  ];
  const dispose = async () => {
    if (opts.closeClient) await client.shutdown();
  };

  return {
    async putFunction(f) {
      await exec(Q.putFunction, [f.id, f.ncaId, json(f)]);
    },
    getFunctions: (ids) => selectByKeys(client, Q.getFunctions, ids, (r) => str(r, 'id'), readFunction),
    async listFunctions(ncaId) {
      return (await selectAll(client, Q.listFunctions, [ncaId]))
        .map(readFunction)
        .filter((f): f is FunctionRecord => f !== null);
    },

    async putVersion(v) {
      await exec(Q.putVersion, [v.id, v.functionId, v.status, v.deploymentId ?? null, json(v)]);
    },
    getVersions: (ids) => selectByKeys(client, Q.getVersions, ids, (r) => str(r, 'id'), readVersion),
    async listVersions(functionIds) {
      // SAI has no IN: one indexed query per function, all in flight at once
      return Promise.all(
        functionIds.map(async (fid) =>
          (await selectAll(client, Q.listVersions, [fid]))
            .map(readVersion)
            .filter((v): v is VersionRecord => v !== null),
        ),
      );
    },
    async setVersionStatus(id, status, expected) {
      const allowed = expected ?? ALL_STATUSES;
      if (allowed.length === 0) return false;
      return (await exec(Q.setVersionStatus, [status, id, allowed])).wasApplied();
    },

    async putDeployment(d, specs, pairs) {
      // Ordered instead of one logged batch: a batch of full revision documents (configuration up to
      // 64 KiB each) passes batch_size_fail_threshold (50 KiB). Each step is reachable only from the next
      // (version -> deployment -> specs, revisions), so a crash part-way leaves unreachable rows, never a
      // deployment that points at missing specs.
      await Promise.all([
        ...specs.map((s) => exec(Q.putSpec, [s.id, s.minInstances, s.maxInstances, json(s)])),
        ...pairs.map((p) => exec(Q.putPair, [p.specId, ...pairParams(p)])),
      ]);
      await exec(Q.putDeployment, [d.id, json(d)]);
      await exec(Q.linkVersion, [d.id, d.versionId]);
    },
    getDeployments: (ids) =>
      selectByKeys(
        client,
        Q.getDeployments,
        ids,
        (r) => str(r, 'id'),
        (r) => parse(r.get('doc')),
      ),
    getSpecs: (ids) => selectByKeys(client, Q.getSpecs, ids, (r) => str(r, 'id'), readSpec),
    async setSpecBounds(id, minInstances, maxInstances) {
      await exec(Q.setSpecBounds, [minInstances, maxInstances, id]);
    },

    async getRevisions(specIds) {
      const found = await selectByKeys(client, Q.getPairs, specIds, (r) => str(r, 'spec_id'), readPair);
      return found.map((p, i) => p ?? { specId: specIds[i], latest: null, lastApplied: null });
    },
    async casRevisions(specId, expectedLatestId, next) {
      return (await exec(Q.casPair, [...pairParams(next), specId, expectedLatestId])).wasApplied();
    },
    async inFlightRevisions() {
      return (await selectAll(client, Q.inFlight)).map(readPair).filter((p) => inFlight(p.latest));
    },

    async recordInstance(specId, obs) {
      const at = types.Long.fromNumber(obs.clock);
      const doc = json(obs);
      await observed.write(
        obs.instanceId,
        () => reports.write(Q.obsPut, [at, specId, obs.clock, doc, obs.instanceId]),
        () => reports.write(Q.obsPutState, [at, obs.clock, doc, obs.instanceId]),
      );
    },
    async instanceStates(specId) {
      return (await selectAll(client, Q.obsList, [specId])).map((r) => parse<InstanceObservation>(r.get('doc'))!);
    },

    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

import type { NvcfStore } from './types.js';
import type {
  DeploymentRecord,
  FunctionRecord,
  InstanceObservation,
  RevisionPair,
  SpecRecord,
  VersionRecord,
} from '../model.js';

// Copies in and out, so callers can never mutate stored state by accident (as with a real DB).
const copy = <T>(v: T): T => (v === null || v === undefined ? v : structuredClone(v));

export function createMemoryNvcfStore(): NvcfStore {
  const functions = new Map<string, FunctionRecord>();
  const versions = new Map<string, VersionRecord>();
  const deployments = new Map<string, DeploymentRecord>();
  const specs = new Map<string, SpecRecord>();
  const revisions = new Map<string, RevisionPair>();
  const instances = new Map<string, Map<string, InstanceObservation>>();
  const many = <T>(m: Map<string, T>, ids: readonly string[]) => ids.map((id) => copy(m.get(id) ?? null));

  const store: NvcfStore = {
    async putFunction(f) {
      functions.set(f.id, copy(f));
    },
    async getFunctions(ids) {
      return many(functions, ids);
    },
    async listFunctions(ncaId) {
      return [...functions.values()].filter((f) => f.ncaId === ncaId).map(copy);
    },

    async putVersion(v) {
      versions.set(v.id, copy(v));
    },
    async getVersions(ids) {
      return many(versions, ids);
    },
    async listVersions(functionIds) {
      const all = [...versions.values()];
      return functionIds.map((fid) => all.filter((v) => v.functionId === fid).map(copy));
    },
    async setVersionStatus(id, status, expected) {
      const v = versions.get(id);
      if (!v || (expected && !expected.includes(v.status))) return false;
      v.status = status;
      return true;
    },

    async putDeployment(d, newSpecs, pairs) {
      deployments.set(d.id, copy(d));
      for (const s of newSpecs) specs.set(s.id, copy(s));
      for (const p of pairs) revisions.set(p.specId, copy(p));
      const v = versions.get(d.versionId);
      if (v) v.deploymentId = d.id;
    },
    async getDeployments(ids) {
      return many(deployments, ids);
    },
    async getSpecs(ids) {
      return many(specs, ids);
    },
    async setSpecBounds(id, minInstances, maxInstances) {
      const s = specs.get(id);
      if (s) Object.assign(s, { minInstances, maxInstances });
    },

    async getRevisions(specIds) {
      return specIds.map((id) => copy(revisions.get(id) ?? { specId: id, latest: null, lastApplied: null }));
    },
    async casRevisions(specId, expectedLatestId, next) {
      // single-threaded event loop: check and set run without interleaving
      const cur = revisions.get(specId);
      if ((cur?.latest?.id ?? null) !== expectedLatestId) return false;
      revisions.set(specId, copy({ specId, ...next }));
      return true;
    },
    async inFlightRevisions() {
      return [...revisions.values()]
        .filter((p) => p.latest && (p.latest.status === 'PENDING' || p.latest.status === 'ROLLING_OUT'))
        .map(copy);
    },

    async recordInstance(specId, obs) {
      let m = instances.get(specId);
      if (!m) instances.set(specId, (m = new Map<string, InstanceObservation>()));
      const cur = m.get(obs.instanceId);
      if (cur && cur.clock >= obs.clock) return;
      m.set(obs.instanceId, copy(obs));
    },
    async instanceStates(specId) {
      return [...(instances.get(specId)?.values() ?? [])].map(copy);
    },
    async dispose() {},
    async [Symbol.asyncDispose]() {},
  };
  return store;
}

import type { IcmsStore } from './types.js';
import type {
  ClusterRecord,
  InstanceRecord,
  OperatorReport,
  TaskPlacementRecord,
  UpdateActionRecord,
} from '../model.js';

const copy = <T>(v: T): T => (v === null || v === undefined ? v : structuredClone(v));

export function createMemoryIcmsStore(): IcmsStore {
  const clusters = new Map<string, ClusterRecord>();
  // apart from the records: registering a cluster again (every start) keeps its agent's report
  const reports = new Map<string, OperatorReport>();
  const withReport = (c: ClusterRecord | null | undefined) =>
    c ? { ...copy(c), ...(reports.has(c.id) ? { operators: copy(reports.get(c.id)!) } : {}) } : null;
  const instances = new Map<string, InstanceRecord>();
  const accepted = new Set<string>();
  const tasks = new Map<string, TaskPlacementRecord>();
  const endedTasks = new Set<string>();
  const actions: UpdateActionRecord[] = [];
  const by = (pred: (i: InstanceRecord) => boolean) => [...instances.values()].filter(pred).map(copy);

  const store: IcmsStore = {
    async putCluster(c) {
      clusters.set(c.id, copy(c));
    },
    async listClusters() {
      return [...clusters.values()].map((c) => withReport(c)!);
    },
    async getClusters(ids) {
      return ids.map((id) => withReport(clusters.get(id)));
    },
    async setOperatorReport(clusterId, report) {
      if ((reports.get(clusterId)?.clock ?? -1) < report.clock) reports.set(clusterId, copy(report));
    },
    async setDedication(clusterId, expected, next) {
      const c = clusters.get(clusterId);
      if (!c || (c.dedicatedTo ?? null) !== expected) return false;
      c.dedicatedTo = next;
      return true;
    },
    async putInstances(list) {
      for (const i of list) instances.set(i.id, copy(i));
    },
    async getInstances(ids) {
      return ids.map((id) => copy(instances.get(id) ?? null));
    },
    async listInstancesBySpec(specIds) {
      return specIds.map((s) => by((i) => i.gpuSpecificationId === s));
    },
    async specTenant(specId) {
      for (const i of instances.values()) if (i.gpuSpecificationId === specId) return i.ncaId;
      return null;
    },
    async listInstancesByVersion(versionId) {
      return by((i) => i.versionId === versionId);
    },
    async listInstancesByCluster(clusterId) {
      return by((i) => i.clusterId === clusterId);
    },
    async recordState(id, state, revisionId, clock, at) {
      const i = instances.get(id);
      if (!i || i.clock >= clock) return;
      Object.assign(i, { state, revisionId, clock, updatedAt: at });
    },
    async putTask(t) {
      tasks.set(t.id, copy(t));
    },
    async endTask(id) {
      endedTasks.add(id);
    },
    async getTask(id) {
      const t = tasks.get(id);
      return t ? { ...copy(t), ended: endedTasks.has(id) } : null;
    },
    async listTasksByCluster(clusterId) {
      return [...tasks.values()]
        .filter((t) => t.clusterId === clusterId)
        .map((t) => ({ ...copy(t), ended: endedTasks.has(t.id) }));
    },
    async markAccepted(specId) {
      accepted.add(specId);
    },
    async isAccepted(specId) {
      return accepted.has(specId);
    },
    async putUpdateAction(a) {
      actions.push(copy(a));
    },
    async listUpdateActions(specIds) {
      return specIds.map((s) =>
        actions
          .filter((a) => a.gpuSpecificationId === s)
          .map(copy)
          .reverse(),
      );
    },
    async dispose() {},
    async [Symbol.asyncDispose]() {},
  };
  return store;
}

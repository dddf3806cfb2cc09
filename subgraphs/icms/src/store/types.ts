import type {
  ClusterRecord,
  InstanceRecord,
  OperatorReport,
  TaskPlacementRecord,
  UpdateActionRecord,
} from '../model.js';

/** ICMS's persistence port: memory (embedded default) and Cassandra implement it. */
export interface IcmsStore extends AsyncDisposable {
  putCluster(c: ClusterRecord): Promise<void>;
  listClusters(): Promise<ClusterRecord[]>;
  getClusters(ids: readonly string[]): Promise<(ClusterRecord | null)[]>;
  /** compare-and-set of the single-tenant lock */
  setDedication(clusterId: string, expected: string | null, next: string | null): Promise<boolean>;
  /** keeps the agent's report with the highest clock (reports may arrive out of order) */
  setOperatorReport(clusterId: string, report: OperatorReport): Promise<void>;

  putInstances(instances: InstanceRecord[]): Promise<void>;
  getInstances(ids: readonly string[]): Promise<(InstanceRecord | null)[]>;
  listInstancesBySpec(specIds: readonly string[]): Promise<InstanceRecord[][]>;
  /** the tenant of the spec's instances (one of them is read: they all share it); null when none is recorded */
  specTenant(specId: string): Promise<string | null>;
  listInstancesByVersion(versionId: string): Promise<InstanceRecord[]>;
  listInstancesByCluster(clusterId: string): Promise<InstanceRecord[]>;
  /**
   * Newest by clock wins, in any order of calls: a stale or repeated state changes nothing, and an
   * unknown instance stays unknown (a state recorded before its launch record reads as missing).
   */
  recordState(
    instanceId: string,
    state: InstanceRecord['state'],
    revisionId: string | null,
    clock: number,
    at: string,
  ): Promise<void>;

  /** stores where a task was placed; an end already recorded for it stays (ended is never undone) */
  putTask(t: TaskPlacementRecord): Promise<void>;
  /** records a task's end, whether or not its placement is stored yet */
  endTask(id: string): Promise<void>;
  /** a placed task, null when its placement is not stored */
  getTask(id: string): Promise<TaskPlacementRecord | null>;
  /** the tasks placed on the cluster, ended ones too (a missing placement is not listed) */
  listTasksByCluster(clusterId: string): Promise<TaskPlacementRecord[]>;

  markAccepted(specId: string): Promise<void>;
  isAccepted(specId: string): Promise<boolean>;
  putUpdateAction(a: UpdateActionRecord): Promise<void>;
  listUpdateActions(specIds: readonly string[]): Promise<UpdateActionRecord[][]>;
  dispose(): Promise<void>;
}

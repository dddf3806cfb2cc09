import type { StatusEvent } from '@nvcf/contracts';

export interface InstanceStatus {
  instanceId: string;
  ncaId: string;
  functionId: string;
  versionId: string;
  gpuSpecificationId: string;
  clusterId: string;
  state: StatusEvent['state'];
  revisionId: string | null;
  /**
   * UPDATING (and a FAILED that ended an update): the revision the instance is moving to.
   * Optional: rows recorded before this field, and events of older agents, have none.
   */
  targetRevisionId?: string | null;
  updatedAt: string;
  clock: number;
  /** stream sequence of the event this row reflects */
  seq: number;
}

/** nvca-status's persistence port: the latest status of every instance. */
export interface StatusStore extends AsyncDisposable {
  /** newest by clock wins, in any order of calls: a stale or repeated status changes nothing */
  record(s: InstanceStatus): Promise<void>;
  get(ids: readonly string[]): Promise<(InstanceStatus | null)[]>;
  /** current status of a tenant's instances matching the filter (snapshots) */
  list(ncaId: string, filter: StatusFilter): Promise<InstanceStatus[]>;
  dispose(): Promise<void>;
}

export interface StatusFilter {
  functionId?: string | null;
  versionId?: string | null;
  gpuSpecificationId?: string | null;
  instanceId?: string | null;
}

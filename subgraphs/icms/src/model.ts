import type { InstanceState, OperatorSupport } from '@nvcf/contracts';

/** The newest ClusterOperatorsMessage of the cluster's agent. */
export interface OperatorReport {
  clock: number;
  at: string;
  operators: OperatorSupport[];
}

/** A kind of GPU a cluster offers, and how many of them its instance types take. */
export interface ClusterGpu {
  name: string;
  instanceTypes: string[];
  /** GPUs of this kind the cluster has; absent (a record from before capacity was modelled): never full */
  capacity?: number;
  /** GPUs an instance of each instance type takes (`gh100_8.br20_16xlarge: 8`); one when not listed */
  gpusPerInstance?: Record<string, number>;
  /**
   * Node labels the nodes of each instance type carry (`p5.48xlarge: { node.kubernetes.io/instance-type: p5.48xlarge }`),
   * which a task's pod is pinned to; an instance type not listed gets no selector (any GPU node)
   */
  nodeSelectors?: Record<string, Record<string, string>>;
}

export interface ClusterRecord {
  id: string;
  name: string;
  /** the owning account */
  ncaId: string;
  /** tenants allowed to place workloads here */
  authorizedNcaIds: string[];
  attributes: string[];
  gpus: ClusterGpu[];
  regions: string[];
  /** set while the cluster hosts an operator workload: it is single-tenant then */
  dedicatedTo?: string | null;
  /** what its agent last reported about operator CRDs (none yet: every advertised operator is assumed installed) */
  operators?: OperatorReport | null;
}

export interface InstanceRecord {
  id: string;
  ncaId: string;
  functionId: string;
  versionId: string;
  gpuSpecificationId: string;
  clusterId: string;
  /** the revision the instance was launched with */
  launchRevisionId: string;
  state: InstanceState | 'REQUESTED';
  revisionId: string | null;
  clock: number;
  singleTenant: boolean;
  createdAt: string;
  updatedAt: string;
  /** the GPUs it holds while live; absent on a record stored before capacity was modelled */
  gpus?: GpuUse;
}

export interface UpdateActionRecord {
  id: string;
  ncaId: string;
  gpuSpecificationId: string;
  revisionId: string;
  targets: string[];
  createdAt: string;
}

/** A task ICMS placed: what it runs on, and whether it still does (nvct's status events end it). */
export interface TaskPlacementRecord {
  id: string;
  ncaId: string;
  clusterId: string;
  /** an operator task: its cluster is dedicated to its tenant while it runs */
  singleTenant: boolean;
  /** its terminal status was seen; may be set before the placement is stored (an end that overtook it) */
  ended: boolean;
  createdAt: string;
  /** the GPUs it holds until it ends; absent on a record stored before capacity was modelled */
  gpus?: GpuUse;
}

/** The GPUs a workload holds on its cluster: `count` of the kind `name`. */
export interface GpuUse {
  name: string;
  count: number;
}

export const isLive = (i: Pick<InstanceRecord, 'state'>) => i.state !== 'TERMINATED' && i.state !== 'FAILED';

/** A GPU specification as ICMS knows it: only its key (nvcf owns the rest). */
export interface SpecRef {
  id: string;
}

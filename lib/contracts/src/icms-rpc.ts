import type { InstanceRef, RunTaskMessage, Workload } from './payloads.js';

/** The internal calls nvcf makes to ICMS (POST /internal/rpc/<method>); defined once, here. */
export interface PlacementRequest {
  gpu: string;
  instanceType: string;
  clusters: string[];
  regions: string[];
  /** every attribute a cluster must carry (spec attributes plus operator attributes) */
  attributes: string[];
  /** operator workloads make the chosen cluster single-tenant */
  singleTenant: boolean;
}

export interface LaunchSpec {
  ref: Omit<InstanceRef, 'clusterId'>;
  placement: PlacementRequest;
  count: number;
  revisionId: string;
  revisionCreatedAt: string;
  workload: Workload;
}

/** A task to place (nvct): where it may run, and the run message ICMS sends to the cluster it picks. */
export interface TaskPlacement {
  placement: PlacementRequest;
  /** the cluster, and what its record says of the instance type (GPU count, node labels), are ICMS's to fill in */
  run: Omit<RunTaskMessage, 'type' | 'clusterId' | 'gpuCount' | 'nodeSelector'>;
}

export interface IcmsRpc {
  /**
   * All-or-nothing: places every spec or refuses with NO_ELIGIBLE_CLUSTER and creates nothing.
   * Repeatable: repeated with the same revisions, it keeps the instances already created.
   */
  launch: { input: { specs: LaunchSpec[] }; output: { instances: Record<string, string[]> } };
  /** Resolves the full current instance set, records the action, sends one message per cluster. */
  update: {
    input: { ref: Omit<InstanceRef, 'clusterId'>; revisionId: string; revisionCreatedAt: string; workload: Workload };
    output: { updateActionId: string; targets: string[] };
  };
  /**
   * Whether the spec has an instance request ICMS accepted, and how many of its instances are live.
   * `liveInstances: false` skips the count, which an update's check does not need: two single-row
   * reads instead of a list of every instance of the spec. An ICMS that does not know the flag counts
   * anyway, so nvcf and ICMS may be upgraded in either order.
   */
  accepted: {
    input: { gpuSpecificationId: string; liveInstances?: boolean };
    output: { accepted: boolean; liveInstances?: number };
  };
  terminate: { input: { versionId: string; graceful: boolean }; output: { terminated: number } };
  /**
   * Places a task on an eligible cluster and sends it there to run, or refuses with
   * NO_ELIGIBLE_CLUSTER (also when every cluster that could take it is full: the task waits).
   * Repeatable: the run message's id makes a repeat a duplicate.
   */
  placeTask: { input: TaskPlacement; output: { clusterId: string } };
}

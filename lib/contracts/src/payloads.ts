/** Payloads between ICMS, agents and the status readers: defined once, here. */
export type InstanceState = 'STARTING' | 'ACTIVE' | 'UPDATING' | 'FAILED' | 'TERMINATED';

export interface HelmWorkload {
  kind: 'helm';
  chart: string;
  serviceName: string;
  servicePort?: number;
  /** the complete Helm values of the revision; never a diff */
  values: Record<string, unknown>;
}
export interface OperatorWorkload {
  kind: 'operator';
  operatorTypes: string[];
  /** the base manifests with the revision's merge patches already applied */
  manifests: Record<string, unknown>[];
  serviceName: string;
  servicePort: number;
}
export interface ContainerWorkload {
  kind: 'container';
  image: string;
  args: string[];
  environment: Record<string, string>;
}
export type Workload = HelmWorkload | OperatorWorkload | ContainerWorkload;

export interface InstanceRef {
  ncaId: string;
  functionId: string;
  versionId: string;
  gpuSpecificationId: string;
  clusterId: string;
}

export interface CreateInstanceMessage extends InstanceRef {
  type: 'create';
  instanceId: string;
  gpu: string;
  instanceType: string;
  revisionId: string;
  /** orders revisions: an agent never replaces a newer revision with an older one */
  revisionCreatedAt: string;
  workload: Workload;
}

export interface UpdateInstancesMessage extends InstanceRef {
  type: 'update';
  updateActionId: string;
  revisionId: string;
  revisionCreatedAt: string;
  workload: Workload;
  /** the instances of this cluster that must run the revision */
  targets: string[];
}

export interface TerminateInstanceMessage {
  type: 'terminate';
  instanceId: string;
  clusterId: string;
  graceful: boolean;
}

export interface StatusEvent extends InstanceRef {
  instanceId: string;
  state: InstanceState;
  previousState: InstanceState | null;
  revisionId: string | null;
  /** ISO-8601 time of the transition at the agent */
  at: string;
  /**
   * Per-instance logical clock (monotonic at the agent, survives restarts because it is
   * at least the wall clock in microseconds): readers drop an event whose clock is not
   * newer than the last one they applied for that instance.
   */
  clock: number;
  message?: string;
  /** set on FAILED: permanent failures end the rollout for this revision */
  permanent?: boolean;
  /**
   * An in-place update to this revision failed permanently; the instance stays ACTIVE on
   * `revisionId`, its last applied revision (rule 9).
   */
  failedRevisionId?: string;
  /**
   * The revision the instance is moving to: set on UPDATING (while `revisionId` is still the
   * revision it serves) and on a FAILED that ended an update. Optional because events of
   * agents older than this field, and every other transition, do not carry it.
   */
  targetRevisionId?: string;
}

/** One operator type as an agent found it on its cluster. */
export interface OperatorSupport {
  operatorType: string;
  clusterAttribute: string;
  /** CRDs of the type's kinds the API server does not serve (`<plural>.<group>`); empty: usable */
  missingCrds: string[];
}

/**
 * An agent's report about its cluster (subject `Cluster.NVCA.<clusterId>`): sent at start, when
 * a periodic check finds a change, and at once when an apply meets a missing CRD. ICMS keeps the
 * newest by `clock` and places no workload of an operator type whose CRDs are missing there.
 */
export interface ClusterOperatorsMessage {
  type: 'operators';
  clusterId: string;
  /** ISO-8601 time of the check at the agent */
  at: string;
  /** microseconds, monotonic at the agent: readers keep the report with the highest clock */
  clock: number;
  /** every operator type of the agent's registry */
  operators: OperatorSupport[];
}

export type TaskStatus =
  | 'QUEUED'
  | 'LAUNCHED'
  | 'RUNNING'
  | 'COMPLETED'
  | 'ERRORED'
  | 'CANCELED'
  | 'EXCEEDED_MAX_RUNTIME'
  | 'EXCEEDED_MAX_QUEUED_DURATION';

/** Where a task ends: no transition leaves these (nvct's lifecycle); every reader of its events agrees. */
export const taskEnded = (s: TaskStatus): boolean => s !== 'QUEUED' && s !== 'LAUNCHED' && s !== 'RUNNING';

/**
 * One transition of a task (subject `Status.NVCT.<ncaId>.<taskId>`), published by nvct once the
 * transition is stored. `seq` counts the task's transitions (1 is QUEUED): a reader drops an
 * event whose seq is not newer than the last one it applied for that task.
 */
export interface TaskStatusEvent {
  type: 'task-status';
  ncaId: string;
  taskId: string;
  seq: number;
  status: TaskStatus;
  previousStatus: TaskStatus | null;
  /** ISO-8601 time of the transition */
  at: string;
  /** why it ended (every terminal state but COMPLETED), or the workload's exit message */
  message: string | null;
}

/** Run a task on a cluster (subject `Task.NVCA.<clusterId>`), sent by ICMS once it placed the task. */
export interface RunTaskMessage {
  type: 'run-task';
  ncaId: string;
  taskId: string;
  clusterId: string;
  gpu: string;
  instanceType: string;
  /**
   * GPUs an instance of `instanceType` takes on this cluster (its record's `gpusPerInstance`), which
   * the workload requests; absent in a message sent before ICMS modelled capacity: one
   */
  gpuCount?: number;
  /**
   * Node labels of `instanceType`'s nodes on this cluster (its record's `nodeSelectors`), which the
   * workload's pod must land on; absent when the record names none (or the message predates them)
   */
  nodeSelector?: Record<string, string>;
  workload: Workload;
  /** the task's configuration (Helm values; `nvcfSimulate` on simulated clusters) */
  configuration: Record<string, unknown> | null;
  /** ISO 8601: how long a stopped workload gets to exit */
  terminationGracePeriodDuration: string;
}

/** Stop a task the agent runs (or was told to run): sent by nvct when it cancels or times out a launched task. */
export interface StopTaskMessage {
  type: 'stop-task';
  ncaId: string;
  taskId: string;
  clusterId: string;
  /** the task's terminal state, for the agent's log */
  reason: TaskStatus;
}

export type TaskWorkMessage = RunTaskMessage | StopTaskMessage;

/** What an agent reports of a task it runs; the task's end carries the workload's exit message. */
export type TaskReportStatus = Extract<TaskStatus, 'RUNNING' | 'COMPLETED' | 'ERRORED'>;

/**
 * One report of an agent about a task (subject `Report.NVCT.<ncaId>.<taskId>`). nvct applies it
 * by compare-and-set from where the task is: a late or repeated report changes nothing.
 */
export interface TaskReport {
  type: 'task-report';
  ncaId: string;
  taskId: string;
  clusterId: string;
  status: TaskReportStatus;
  /** ISO-8601 time at the agent */
  at: string;
  message: string | null;
}

export const msgIds = {
  runTask: (taskId: string) => `run-task:${taskId}`,
  stopTask: (taskId: string) => `stop-task:${taskId}`,
  taskReport: (r: Pick<TaskReport, 'taskId' | 'status'>) => `task-report:${r.taskId}:${r.status}`,
  taskStatus: (e: Pick<TaskStatusEvent, 'taskId' | 'seq'>) => `task-status:${e.taskId}:${e.seq}`,
  create: (instanceId: string) => `create:${instanceId}`,
  update: (updateActionId: string, clusterId: string) => `update:${updateActionId}:${clusterId}`,
  terminate: (instanceId: string) => `terminate:${instanceId}`,
  status: (e: Pick<StatusEvent, 'instanceId' | 'clock'>) => `status:${e.instanceId}:${e.clock}`,
  cluster: (m: Pick<ClusterOperatorsMessage, 'clusterId' | 'clock'>) => `cluster:${m.clusterId}:${m.clock}`,
};

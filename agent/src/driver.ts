import type { CreateInstanceMessage, InstanceState, OperatorSupport, RunTaskMessage } from '@nvcf/contracts';

/** A failure that may pass (throttling, a conflict, a node not ready): retried with backoff. */
export class TemporaryFailure extends Error {
  override name = 'TemporaryFailure';
}
/** A failure that will not pass (schema rejection, bad values): reported at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/** The API server serves no CRD for a kind being applied: the operator is not installed there. */
export class MissingCrds extends PermanentFailure {
  override name = 'MissingCrds';
  constructor(
    message: string,
    readonly crds: string[],
    readonly operatorTypes: string[],
  ) {
    super(message);
  }
}

/**
 * Removal did not finish in time: objects still there, held by finalizers. The agent reports the
 * instance FAILED with this message and keeps the work (redelivered) until the cluster is clean.
 */
export class RemovalStuck extends TemporaryFailure {
  override name = 'RemovalStuck';
}

/** What an instance should run: the create message minus its type tag (one definition, in lib/contracts). */
export type DesiredInstance = Omit<CreateInstanceMessage, 'type'>;

/** What the cluster says about one instance: the source of truth for idempotence. */
export interface ObservedInstance {
  desired: DesiredInstance;
  /** the revision that is applied and ready; null while nothing is ready yet */
  readyRevisionId: string | null;
  /** the last state this agent reported, so a restarted agent knows previousState */
  reportedState: InstanceState | null;
  lastClock: number;
}

/** How a task's workload ended: 0 is success; the message is the workload's own (or why it failed). */
export interface TaskExit {
  exitCode: number;
  message: string | null;
}

/**
 * The port between the agent and a cluster. `apply` is in place and idempotent: applying
 * the revision that already runs changes nothing; it resolves when the worker is ready.
 */
export interface ClusterDriver extends AsyncDisposable {
  readonly clusterId: string;
  observe(instanceId: string): Promise<ObservedInstance | null>;
  apply(desired: DesiredInstance, signal: AbortSignal): Promise<void>;
  /** remembers what the agent reported (a label/annotation on the real cluster) */
  noteReported(instanceId: string, state: InstanceState, clock: number): Promise<void>;
  /** resolves once the instance's objects are gone; may throw RemovalStuck */
  remove(instanceId: string, graceful: boolean): Promise<void>;
  /** which operator types the cluster can run (their CRDs served); drivers without operators omit it */
  operatorSupport?(): Promise<OperatorSupport[]>;
  /**
   * Runs a task to its end: calls `running` once its workload runs, resolves with how it ended;
   * the signal stops it (and rejects). Drivers that run no tasks omit it: their agent takes no task work.
   */
  runTask?(task: RunTaskMessage, signal: AbortSignal, running: () => Promise<void>): Promise<TaskExit>;
  /**
   * Removes what a run of the task left on the cluster, when this agent does not run it (it ran
   * under an agent that has since restarted): a stop must not leave the workload behind.
   */
  removeTask?(taskId: string): Promise<void>;
  /**
   * Whether the cluster still runs the task's workload, started before the agent restarted (a
   * workload that outlives its agent, as a Kubernetes Job does); `runTask` for it then follows
   * that workload to its end instead of starting another. Omitted: workloads end with their agent.
   */
  runsTask?(taskId: string): Promise<boolean>;
  dispose(): Promise<void>;
}

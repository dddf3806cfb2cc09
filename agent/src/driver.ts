import type { CreateInstanceMessage, InstanceState } from '@nvcf/messaging';

/** A failure that may pass (throttling, a conflict, a node not ready): retried with backoff. */
export class TemporaryFailure extends Error {
  override name = 'TemporaryFailure';
}
/** A failure that will not pass (schema rejection, bad values): reported at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/** What an instance should run: the create message minus its type tag (one definition, in lib/messaging). */
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
  remove(instanceId: string, graceful: boolean): Promise<void>;
  dispose(): Promise<void>;
}

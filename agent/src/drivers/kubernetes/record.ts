import type { InstanceState } from '@nvcf/contracts';
import { nvcfLabels, REVISION_ANNOTATION } from '@nvcf/operators';
import type { DesiredInstance, ObservedInstance } from '../../driver.js';
import type { KubeObject } from './client.js';
import { CLUSTER_LABEL, RECORD } from './names.js';

const STATES: InstanceState[] = ['STARTING', 'ACTIVE', 'UPDATING', 'FAILED', 'TERMINATED'];

/** The annotations an apply writes: the revision it carries and the whole desired instance. */
export const desiredAnnotations = (d: DesiredInstance): Record<string, string> => ({
  [REVISION_ANNOTATION]: d.revisionId,
  [RECORD.desired]: JSON.stringify(d),
});

/** The metadata of an instance's record object (MiniService, namespace): ids, cluster, desired instance. */
export const recordMetadata = (name: string, d: DesiredInstance) => ({
  name,
  labels: { ...nvcfLabels(d), [CLUSTER_LABEL]: d.clusterId },
  annotations: desiredAnnotations(d),
});

/** Written by merge patch, never by the apply: an apply drops the fields it does not send. */
export const readyPatch = (revisionId: string) => ({
  metadata: { annotations: { [RECORD.readyRevision]: revisionId } },
});
export const reportedPatch = (state: InstanceState, clock: number) => ({
  metadata: { annotations: { [RECORD.reportedState]: state, [RECORD.lastClock]: String(clock) } },
});

/**
 * What the cluster says about an instance, or null when the object is not this cluster's,
 * is being deleted, or was never applied by an agent.
 */
export function observedFrom(obj: KubeObject | null, clusterId: string): ObservedInstance | null {
  if (!obj || obj.metadata.deletionTimestamp || obj.metadata.labels?.[CLUSTER_LABEL] !== clusterId) return null;
  const a = obj.metadata.annotations ?? {};
  let desired: DesiredInstance;
  try {
    // the agent's own record (desiredAnnotations), on an object labelled with this cluster
    desired = JSON.parse(a[RECORD.desired] ?? '') as DesiredInstance;
  } catch {
    return null;
  }
  const state = a[RECORD.reportedState] as InstanceState | undefined;
  const clock = Number(a[RECORD.lastClock] ?? 0);
  return {
    desired,
    // the agent's own mark, set only once apply saw the revision ready: a controller that got
    // there while the agent was down must still see the agent report it
    readyRevisionId: a[RECORD.readyRevision] ?? null,
    reportedState: state && STATES.includes(state) ? state : null,
    lastClock: Number.isFinite(clock) ? clock : 0,
  };
}

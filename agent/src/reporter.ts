import { type Bus } from '@nvcf/bus';
import { msgIds, subjects, type InstanceState, type StatusEvent } from '@nvcf/contracts';
import type { ClusterDriver, DesiredInstance, ObservedInstance } from './driver.js';

export type Last = Pick<ObservedInstance, 'reportedState' | 'lastClock'> | null;

export interface Report {
  state: InstanceState;
  revisionId: string | null;
  message?: string;
  permanent?: boolean;
  failedRevisionId?: string;
  /** UPDATING, and a FAILED that ended an update: the revision the instance is moving to */
  targetRevisionId?: string;
}

/** Publishes one transition; the clock only moves forward, even across agent restarts. */
export async function report(
  bus: Bus,
  driver: ClusterDriver,
  d: DesiredInstance,
  prev: Last,
  r: Report,
): Promise<NonNullable<Last>> {
  const clock = Math.max((prev?.lastClock ?? 0) + 1, Date.now() * 1000);
  const event: StatusEvent = {
    ncaId: d.ncaId,
    functionId: d.functionId,
    versionId: d.versionId,
    gpuSpecificationId: d.gpuSpecificationId,
    clusterId: d.clusterId,
    instanceId: d.instanceId,
    state: r.state,
    previousState: prev?.reportedState ?? null,
    revisionId: r.revisionId,
    at: new Date(Math.floor(clock / 1000)).toISOString(),
    clock,
    ...(r.message ? { message: r.message } : {}),
    ...(r.permanent ? { permanent: true } : {}),
    ...(r.failedRevisionId ? { failedRevisionId: r.failedRevisionId } : {}),
    ...(r.targetRevisionId ? { targetRevisionId: r.targetRevisionId } : {}),
  };
  await bus.publish(subjects.status(d.ncaId, d.instanceId), event, { msgId: msgIds.status(event) });
  await driver.noteReported(d.instanceId, r.state, clock);
  return { reportedState: r.state, lastClock: clock };
}

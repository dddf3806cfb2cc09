import type { HelmWorkload } from '@nvcf/contracts';
import { REVISION_ANNOTATION } from '@nvcf/operators';
import { PermanentFailure, TemporaryFailure, type DesiredInstance } from '../../driver.js';
import type { KubeObject } from './client.js';
import { MINISERVICE } from './names.js';
import { recordMetadata } from './record.js';

export type MiniServicePhase = 'Installing' | 'Running' | 'Retrying' | 'Failed';

/** The MiniService of one Helm instance: the whole values of the revision, never a diff. */
export function miniService(name: string, d: DesiredInstance, w: HelmWorkload): KubeObject {
  return {
    ...MINISERVICE,
    metadata: recordMetadata(name, d),
    spec: {
      chart: w.chart,
      serviceName: w.serviceName,
      ...(w.servicePort !== undefined ? { servicePort: w.servicePort } : {}),
      gpu: d.gpu,
      instanceType: d.instanceType,
      values: w.values,
    },
  };
}

/**
 * The MiniService's status once the controller has seen this generation (the one our apply
 * produced, or a later one) and the object still carries our revision; null before.
 */
export function statusAt<S extends { observedGeneration?: number }>(
  obj: KubeObject | null,
  revisionId: string,
  appliedGeneration: number,
): S | null {
  if (!obj) throw new TemporaryFailure(`MiniService deleted while revision ${revisionId} was rolling out`);
  const gen = obj.metadata.generation ?? 0;
  const status = (obj.status ?? {}) as S;
  if (obj.metadata.annotations?.[REVISION_ANNOTATION] !== revisionId || gen < appliedGeneration) return null;
  return status.observedGeneration === gen ? status : null;
}

/**
 * Ready when the controller runs the generation of our revision (statusAt). Retrying is the
 * controller's own retry of a failure that may pass; Failed will not pass.
 */
export function miniServiceReady(obj: KubeObject | null, revisionId: string, appliedGeneration: number): boolean {
  const status = statusAt<{ observedGeneration?: number; phase?: MiniServicePhase; message?: string }>(
    obj,
    revisionId,
    appliedGeneration,
  );
  if (!status) return false;
  const why = `MiniService ${obj!.metadata.name}: ${status.message ?? 'no message'}`;
  if (status.phase === 'Failed') throw new PermanentFailure(why);
  if (status.phase === 'Retrying') throw new TemporaryFailure(why);
  return status.phase === 'Running';
}

import type { Failure } from './readiness.js';

/** `status.phase` of a MiniService in operator mode (docs/operators.md). */
export type OperatorPhase = 'Installing' | 'Ready' | 'Failed' | 'Deleting';

/**
 * The reasons of the `Ready` condition. `OperatorRetrying` is a failure the registry calls
 * temporary (an unschedulable pod): the phase stays Installing and the agent retries.
 */
export const READY_REASON = {
  ready: 'ObjectsReady',
  pending: 'ObjectsNotReady',
  retrying: 'OperatorRetrying',
  failed: 'OperatorFailed',
  applyFailed: 'ApplyFailed',
  deleting: 'Deleting',
} as const;
export type ReadyReason = (typeof READY_REASON)[keyof typeof READY_REASON];

export interface OperatorCondition {
  type: 'Ready';
  status: 'True' | 'False';
  reason: ReadyReason;
  message: string;
}

export interface OperatorStatus {
  phase: OperatorPhase;
  /** "ready/total" objects the operators created (secondary objects) */
  readiness: string;
  /** the Ready condition's message, also printed by `kubectl get miniservices` */
  message: string;
  conditions: OperatorCondition[];
}

export interface OperatorObservation {
  /** what is not ready yet, `Kind/name (why)` */
  pending: string[];
  /** by the registry's failure rules, permanent first */
  failures: Failure[];
  /** objects the operators created for the instance */
  secondaries: { ready: number; total: number };
  /** the manifests could not be applied (an API server refusal): Failed with its message */
  applyError?: string;
  /** the MiniService is being deleted */
  deleting?: boolean;
}

/** The messages of the Ready condition: docs/operators.md quotes them (`npm run operators:docs`). */
const operatorMessages = {
  ready: (total: number) => `every object ready (${total}/${total} created by the operators)`,
  pending: (pending: string[]) => `waiting for ${pending.join(', ')}`,
  applyFailed: (why: string) => `cannot apply the manifests: ${why}`,
  deleting: 'deleting the instance namespace and everything in it',
} as const;

/**
 * The status of an operator-mode MiniService from what its objects say. One implementation,
 * used by the MiniService controller on an API server and by the simulated cluster in process.
 */
export function operatorStatus(o: OperatorObservation): OperatorStatus {
  const readiness = `${o.secondaries.ready}/${o.secondaries.total}`;
  const make = (phase: OperatorPhase, status: 'True' | 'False', reason: ReadyReason, message: string) => ({
    phase,
    readiness,
    message,
    conditions: [{ type: 'Ready' as const, status, reason, message }],
  });
  if (o.deleting) return make('Deleting', 'False', READY_REASON.deleting, operatorMessages.deleting);
  if (o.applyError)
    return make('Failed', 'False', READY_REASON.applyFailed, operatorMessages.applyFailed(o.applyError));
  const [failure] = o.failures;
  if (failure?.severity === 'permanent') return make('Failed', 'False', READY_REASON.failed, failure.text);
  if (failure) return make('Installing', 'False', READY_REASON.retrying, failure.text);
  if (o.pending.length) return make('Installing', 'False', READY_REASON.pending, operatorMessages.pending(o.pending));
  return make('Ready', 'True', READY_REASON.ready, operatorMessages.ready(o.secondaries.total));
}

/** "ready/total" as numbers; null when the text is not one. */
export function parseReadiness(text: unknown): { ready: number; total: number } | null {
  const m = typeof text === 'string' ? /^(\d+)\/(\d+)$/.exec(text) : null;
  return m ? { ready: Number(m[1]), total: Number(m[2]) } : null;
}

import { counter, gauge, histogram, LONG_BUCKETS } from '@nvcf/telemetry';
import { parseReadiness, READY_REASON, type OperatorPhase } from '@nvcf/operators';
import { PermanentFailure, TemporaryFailure } from './driver.js';

const transitions = counter(
  'nvca_operator_phase_transitions_total',
  'Phases operator-mode MiniServices entered, as the agent read them, by operator type(s) and phase.',
  ['operator', 'phase'],
);
const installSeconds = histogram(
  'nvca_operator_install_seconds',
  'Time from an operator instance entering Installing to Ready (its objects and what the operators created all ready), by operator type(s).',
  ['operator'],
  [0.25, 0.5, 1, 2.5, 5, 10, 30, ...LONG_BUCKETS.filter((b) => b > 30)],
);

interface Seen {
  operator: string;
  phase: OperatorPhase;
  installingSince: number | null;
  ready: number;
  total: number;
}
const instances = new Map<string, Seen>();

gauge(
  'nvca_operator_secondary_ready_ratio',
  'Ready over total objects the operators created, summed over the operator instances this agent follows, by operator type(s); 1 when none were created.',
  ['operator'],
  () => {
    const sums = new Map<string, { ready: number; total: number }>();
    for (const s of instances.values()) {
      const sum = sums.get(s.operator) ?? { ready: 0, total: 0 };
      sum.ready += s.ready;
      sum.total += s.total;
      sums.set(s.operator, sum);
    }
    return [...sums].map(([operator, s]) => ({ labels: { operator }, value: s.total ? s.ready / s.total : 1 }));
  },
);

/** What the agent reads of an operator-mode MiniService's status. */
export interface ObservedOperatorStatus {
  phase?: string;
  readiness?: string;
  message?: string;
  conditions?: { type?: string; reason?: string; message?: string }[];
}

/**
 * Records what the agent read of an operator instance's status: a phase it had not seen for
 * that instance is a transition; Installing to Ready is an install, timed; readiness feeds the ratio.
 */
export function noteOperatorStatus(
  instanceId: string,
  operatorTypes: readonly string[],
  status: ObservedOperatorStatus,
) {
  const phase = status.phase as OperatorPhase | undefined;
  if (!phase) return;
  const operator = [...operatorTypes].sort().join('+');
  const r = parseReadiness(status.readiness) ?? { ready: 0, total: 0 };
  const prev = instances.get(instanceId);
  const now = performance.now();
  const seen: Seen = { operator, phase, installingSince: prev?.installingSince ?? null, ...r };
  if (prev?.phase !== phase) {
    transitions.inc({ operator, phase });
    if (phase === 'Installing') seen.installingSince = now;
    if (phase === 'Ready' && seen.installingSince !== null) {
      installSeconds.observe({ operator }, (now - seen.installingSince) / 1000);
      seen.installingSince = null;
    }
    if (phase === 'Failed') seen.installingSince = null;
  }
  instances.set(instanceId, seen);
}

/** The instance is gone: it no longer counts in the ratio. */
export const forgetOperatorStatus = (instanceId: string) => void instances.delete(instanceId);

/**
 * The agent's verdict on an operator instance from its MiniService's status: true once Ready;
 * Failed is a permanent failure and a failure the operator may get over (OperatorRetrying) a
 * temporary one, both with the condition's message, as the instance reports them.
 */
export function operatorVerdict(status: ObservedOperatorStatus): boolean {
  const ready = status.conditions?.find((c) => c.type === 'Ready');
  const message = ready?.message ?? status.message ?? 'no message';
  if (status.phase === 'Failed') throw new PermanentFailure(message);
  if (status.phase === 'Deleting') throw new TemporaryFailure('the instance is being deleted');
  if (ready?.reason === READY_REASON.retrying) throw new TemporaryFailure(message);
  return status.phase === 'Ready';
}

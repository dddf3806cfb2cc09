/**
 * Where a long-running unit (a server, an agent) is in its life, kept as one value as Apollo
 * Server keeps its state: its readiness probe and its drain read the same phase, instead of
 * flags spread over closures.
 */
export type Phase =
  { kind: 'starting' } | { kind: 'ready' } | { kind: 'draining'; since: number } | { kind: 'stopped' };

export type PhaseKind = Phase['kind'];

const rank: Record<PhaseKind, number> = { starting: 0, ready: 1, draining: 2, stopped: 3 };

/** Takes no new work: a readiness probe answers 503 from here on. */
export const isClosing = (phase: Phase): boolean => rank[phase.kind] >= rank.draining;

/**
 * A phase that only moves forward: starting → ready → draining → stopped, any step may be
 * skipped (a stop without a drain). A late call to an earlier phase (a drain after a stop) keeps
 * the later one, so a probe never sees a stopped unit come back.
 */
export class PhaseState {
  #phase: Phase = { kind: 'starting' };

  constructor(private readonly now: () => number = Date.now) {}

  get current(): Phase {
    return this.#phase;
  }

  /** Moves to `kind` unless the phase is already there or past it; says whether it moved. */
  enter(kind: PhaseKind): boolean {
    if (rank[kind] <= rank[this.#phase.kind]) return false;
    this.#phase = kind === 'draining' ? { kind, since: this.now() } : { kind };
    return true;
  }
}

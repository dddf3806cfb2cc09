import {
  applyListedInstances,
  applyStatusEvent,
  type CliRolloutStatusQuery,
  type InstanceState,
  type RevisionStatus,
  type RolloutInstance,
  type StatusEvent,
} from '@nvcf/client';

export type SpecSnapshot = NonNullable<CliRolloutStatusQuery['gpuSpecification']>;

export type RevisionView = NonNullable<SpecSnapshot['latestRevision']>;

/** One instance, folded by the client's rollout reducer (docs/cli.md says by which rules). */
export type InstanceView = RolloutInstance;

export interface Counts {
  total: number;
  applied: number;
  updating: number;
  failed: number;
  pending: number;
}

/** An instance's state change as the status stream reported it. */
export interface Transition {
  at: string;
  instance: InstanceView;
  previousState: InstanceState | null;
  /** for UPDATING: the revision it leaves */
  fromRevisionId: string | null;
}

/** What changed about the tracked revision on a refetch. */
export type RevisionChange =
  | { kind: 'status'; revision: RevisionView; previous: RevisionStatus }
  /** the latest revision is a newer one (submitted while this one rolled out): it is followed now */
  | { kind: 'superseded'; revision: RevisionView; previous: RevisionView };

export type Outcome =
  { result: 'APPLIED' } | { result: 'FAILED'; reason: string } | { result: 'DEADLINE'; reason: string };

export const FINAL: ReadonlySet<RevisionStatus> = new Set(['APPLIED', 'FAILED']);

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : 0);

/**
 * The rollout of a GPU specification's latest revision as the CLI knows it: the revision and its
 * counts (Revision.progress) from the last refetch, the instances from the status stream (seeded
 * by the refetch), folded by @nvcf/client's rollout reducer as the console folds them.
 */
export class RolloutModel {
  revision: RevisionView | null = null;
  lastAppliedRevisionId: string | null = null;
  functionName = '';
  gpu = '';
  instanceType = '';
  private current = new Map<string, InstanceView>();

  constructor(readonly specId: string) {}

  get instances(): ReadonlyMap<string, InstanceView> {
    return this.current;
  }

  /** Takes a refetch; returns what happened to the tracked revision. */
  applySnapshot(spec: SpecSnapshot): RevisionChange[] {
    this.functionName = spec.deployment.functionVersion.function.name;
    this.gpu = spec.gpu;
    this.instanceType = spec.instanceType;
    this.lastAppliedRevisionId = spec.lastAppliedRevision?.id ?? null;
    const changes: RevisionChange[] = [];
    const next = spec.latestRevision ? { ...spec.latestRevision } : null;
    const prev = this.revision;
    if (prev && next && next.id !== prev.id) changes.push({ kind: 'superseded', revision: next, previous: prev });
    else if (prev && next && next.status !== prev.status)
      changes.push({ kind: 'status', revision: next, previous: prev.status });
    this.revision = next;
    this.current = applyListedInstances(this.current, spec.instances, this.revision?.id ?? null);
    return changes;
  }

  /** Takes a status event; returns the transition to report (none for SNAPSHOT items, nor for a replayed event). */
  applyEvent(e: StatusEvent): Transition | null {
    const prev = this.current.get(e.instance.id);
    const view = applyStatusEvent(prev, e, this.revision?.id ?? null);
    if (view === prev) return null;
    this.current.set(view.id, view);
    if (e.kind !== 'TRANSITION') return null;
    return {
      at: e.at,
      instance: view,
      previousState: e.previousState ?? null,
      fromRevisionId: e.state === 'UPDATING' ? view.revisionId : null,
    };
  }

  /** Instances this revision failed on, with their messages. */
  failures(): InstanceView[] {
    const rev = this.revision?.id;
    return this.sorted().filter((i) => i.state === 'FAILED' || (rev && i.failedRevisionId === rev));
  }

  /** Instances in a stable order (cluster, id): rows that do not jump around in a live view. */
  sorted(): InstanceView[] {
    return [...this.current.values()].sort(
      (a, b) => a.cluster.id.localeCompare(b.cluster.id) || a.id.localeCompare(b.id),
    );
  }

  /** The server's counts (Revision.progress), as of the last refetch. */
  counts(): Counts {
    const p = this.revision?.progress;
    return p
      ? { total: p.total, applied: p.applied, updating: p.updating, failed: p.failed, pending: p.pending }
      : { total: 0, applied: 0, updating: 0, failed: 0, pending: 0 };
  }

  /** The end of the rollout: the revision's final status, or its deadline passed `graceMs` ago without one. */
  outcome(now: number, graceMs: number): Outcome | null {
    const r = this.revision;
    if (!r) return { result: 'APPLIED' };
    if (r.status === 'APPLIED') return { result: 'APPLIED' };
    if (r.status === 'FAILED') return { result: 'FAILED', reason: r.failureReason ?? 'the revision failed' };
    if (r.deadline && now > ms(r.deadline) + graceMs) {
      const c = this.counts();
      return {
        result: 'DEADLINE',
        reason: `deadline ${r.deadline.replace(/\.\d{3}Z$/, 'Z')} passed with ${c.applied} of ${c.total} instances applied`,
      };
    }
    return null;
  }
}

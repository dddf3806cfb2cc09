import type { CliRolloutStatusQuery, InstanceState, RevisionStatus, StatusEvent } from '@nvcf/client';

export type SpecSnapshot = NonNullable<CliRolloutStatusQuery['gpuSpecification']>;

export type RevisionView = NonNullable<SpecSnapshot['latestRevision']>;

export interface InstanceView {
  id: string;
  clusterId: string;
  state: InstanceState;
  /** the revision it runs */
  revisionId: string | null;
  /** the revision an UPDATING instance is moving to */
  targetRevisionId: string | null;
  /** the last message reported for it (a failed update says why) */
  message: string | null;
  /** the revision whose update failed on it, permanently: it went back to serving the one it ran */
  failedRevisionId: string | null;
  /** reported by the status stream at least once: refetches no longer move it */
  fromStream: boolean;
}

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
 * by the refetch).
 */
export class RolloutModel {
  revision: RevisionView | null = null;
  lastAppliedRevisionId: string | null = null;
  functionName = '';
  gpu = '';
  instanceType = '';
  readonly instances = new Map<string, InstanceView>();
  /** terminated per the stream: a lagging refetch must not bring them back */
  private readonly gone = new Set<string>();

  constructor(readonly specId: string) {}

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

    // Instances come from the refetch until the status stream reports them: from then on only its
    // events, which arrive in order per instance, move them (the stores behind a refetch may lag
    // the stream, and their clocks are not the events' clocks).
    const listed = new Set<string>();
    for (const i of spec.instances) {
      listed.add(i.id);
      const cur = this.instances.get(i.id);
      if (cur?.fromStream || this.gone.has(i.id)) continue;
      this.instances.set(i.id, {
        id: i.id,
        clusterId: i.cluster.id,
        state: i.state,
        revisionId: i.revisionId,
        // agents older than targetRevisionId leave it null: an UPDATING instance moves to the latest revision
        targetRevisionId: i.targetRevisionId ?? (i.state === 'UPDATING' ? (this.revision?.id ?? null) : null),
        message: null,
        failedRevisionId: i.state === 'FAILED' ? i.targetRevisionId : null,
        fromStream: false,
      });
    }
    for (const [id, cur] of this.instances) if (!listed.has(id) && !cur.fromStream) this.instances.delete(id);
    return changes;
  }

  /** Takes a status event; returns the transition to report (none for SNAPSHOT items). */
  applyEvent(e: StatusEvent): Transition | null {
    const cur = this.instances.get(e.instance.id);
    const target = e.targetRevisionId;
    // agents older than targetRevisionId leave it null: an UPDATING instance moves to the latest revision
    const targetRevisionId =
      e.state === 'UPDATING' ? (target ?? this.revision?.id ?? null) : e.state === 'FAILED' ? (target ?? null) : null;
    // an UPDATING instance back to serving without the revision it moved to: its update failed for good
    const failedRevisionId =
      e.previousState === 'UPDATING' &&
      e.state !== 'UPDATING' &&
      cur?.targetRevisionId &&
      e.revisionId !== cur.targetRevisionId
        ? cur.targetRevisionId
        : e.state === 'FAILED' && target
          ? target
          : e.state === 'UPDATING'
            ? null
            : (cur?.failedRevisionId ?? null);
    const view: InstanceView = {
      id: e.instance.id,
      clusterId: e.instance.cluster.id,
      state: e.state,
      revisionId: e.revisionId ?? (e.state === 'UPDATING' ? (cur?.revisionId ?? null) : null),
      targetRevisionId,
      message: e.message ?? (e.state === 'UPDATING' ? null : (cur?.message ?? null)),
      failedRevisionId,
      fromStream: true,
    };
    if (e.state === 'TERMINATED') {
      this.instances.delete(view.id);
      this.gone.add(view.id);
    } else this.instances.set(view.id, view);
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
    return [...this.instances.values()].sort(
      (a, b) => a.clusterId.localeCompare(b.clusterId) || a.id.localeCompare(b.id),
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

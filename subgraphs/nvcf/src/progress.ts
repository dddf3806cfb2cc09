import type { InstanceObservation, Revision, RolloutProgress } from './model.js';

/** Where one target stands with respect to one revision; null: out of scope. */
type Bucket = 'applied' | 'updating' | 'failed' | 'pending';

function bucketOf(s: InstanceObservation | undefined, revisionId: string, latest: boolean): Bucket | null {
  // not reported by its agent yet (ICMS accepted it, nothing observed): not on this revision yet
  if (!s) return 'pending';
  // a gone instance is no longer a target (the rollout's outcome skips it the same way)
  if (s.state === 'TERMINATED') return null;
  // UPDATING counts as ACTIVE everywhere: one moving away from this revision still serves it
  if ((s.state === 'ACTIVE' || s.state === 'UPDATING') && s.revisionId === revisionId) return 'applied';
  if (s.state === 'UPDATING') {
    if (s.targetRevisionId === revisionId) return 'updating';
    // agents older than targetRevisionId named no target: they only ever move to the newest revision they got
    if (!s.targetRevisionId && latest) return 'updating';
    return 'pending';
  }
  // an update that failed permanently leaves the instance ACTIVE on its old revision (rule 9)
  if (s.failedRevisionId === revisionId) return 'failed';
  if (s.state === 'FAILED') {
    if (s.targetRevisionId === revisionId || s.revisionId === revisionId) return 'failed';
    // a FAILED instance takes no further update: the latest revision can never reach it, and
    // the rollout's outcome fails that revision on it; an older revision merely lost it
    return latest ? 'failed' : 'pending';
  }
  return 'pending';
}

/**
 * A revision's rollout progress from its targets' current observations: one pass over the
 * spec's instance states (read once per request), whatever the number of targets.
 * `latest` says whether `rev` is the specification's latest revision.
 */
export function rolloutProgress(
  rev: Revision,
  states: readonly InstanceObservation[],
  latest: boolean,
): RolloutProgress {
  const byId = new Map(states.map((s) => [s.instanceId, s]));
  const counts = { applied: 0, updating: 0, failed: 0, pending: 0 };
  // a target listed twice is still one instance
  for (const id of new Set(rev.targets ?? [])) {
    const b = bucketOf(byId.get(id), rev.id, latest);
    if (b) counts[b]++;
  }
  const total = counts.applied + counts.updating + counts.failed + counts.pending;
  return { total, ...counts, startedAt: startedAt(rev), deadline: rev.deadline ?? null };
}

function startedAt(rev: Revision): string | null {
  if (rev.startedAt) return rev.startedAt;
  // stored before startedAt was recorded: targets are set exactly when ICMS accepted the revision,
  // moments after it was created; without targets it never started (PENDING, or ICMS refused it)
  return rev.status !== 'PENDING' && rev.targets ? rev.createdAt : null;
}

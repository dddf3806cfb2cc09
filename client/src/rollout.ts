import type { InstanceState, InstanceStatusEventKind } from './generated/graphql.js';

/**
 * The instances of a rollout as the status stream reports them: one pure fold, shared by the
 * CLI, the console and the ops probe, so that they agree on what an instance's state is.
 *
 * The rules, and why:
 *
 * - **Stream order is the truth.** Per instance, the event with the newest stream position
 *   (the sequence inside its cursor) wins; one at or before the position already applied
 *   changes nothing. The stream is ordered per instance, so an older position arriving late is
 *   a replay (a resumed watch, a second subscription), never news. Event times (`at`) are not
 *   compared: they are the agents' clocks, not one clock.
 * - **A duplicate is idempotent**: the same cursor twice is one event. A SNAPSHOT item carries
 *   the position of the instance's last transition, so a snapshot after one is a duplicate too.
 *   An event whose cursor has no readable position is applied in arrival order.
 * - **A query only seeds.** What a query lists describes an instance until the stream reports
 *   it; from then on only events move it, because the stores behind a query may lag the stream.
 *   An instance only a query described, and that a later query no longer lists, is dropped.
 * - **TERMINATED stays, as TERMINATED.** Removing the instance would forget its position, so a
 *   replayed older event or a lagging query could bring it back; kept, it is still ordered, and
 *   a view shows that it went away during the rollout instead of a row silently vanishing.
 * - **The target revision is filled in**: an UPDATING instance whose event has no
 *   `targetRevisionId` (agents older than the field) moves to the latest revision the caller
 *   knows. An instance back from UPDATING on another revision than its target keeps that target
 *   as `failedRevisionId`: its update failed for good.
 */

/** The cluster of an instance: its id at least (a probe selects no more). */
export interface ClusterRef {
  id: string;
}

/** What the fold reads of a status event: the client's `StatusEvent`, or a narrower selection. */
export interface FoldableStatusEvent<C extends ClusterRef = ClusterRef> {
  cursor: string;
  kind: InstanceStatusEventKind;
  state: InstanceState;
  previousState: InstanceState | null;
  revisionId: string | null;
  targetRevisionId: string | null;
  message: string | null;
  instance: { id: string; cluster: C };
}

/** An instance as a query lists it (GpuSpecification.instances). */
export interface ListedInstance<C extends ClusterRef = ClusterRef> {
  id: string;
  state: InstanceState;
  revisionId: string | null;
  targetRevisionId: string | null;
  cluster: C;
}

/** One instance of a rollout, as the fold knows it. */
export interface RolloutInstance<C extends ClusterRef = { id: string; name: string }> {
  id: string;
  cluster: C;
  state: InstanceState;
  /** the revision it runs */
  revisionId: string | null;
  /** the revision an UPDATING (or FAILED) instance is moving to */
  targetRevisionId: string | null;
  /** the last message reported for it (a failed update says why); cleared when an update starts */
  message: string | null;
  /** the revision whose update failed on it for good: it went back to serving the one it ran */
  failedRevisionId: string | null;
  /** the cursor of the last event applied; null while only a query described it */
  cursor: string | null;
  /** that cursor's stream position, or the last readable one before it */
  seq: number | null;
}

/**
 * The stream position inside a cursor (`v1.<seq base 36>.<signature>`), or undefined for a
 * cursor of another shape. Reading it needs no key; only the gateway can verify the signature.
 */
export function cursorSequence(cursor: string): number | undefined {
  const parts = cursor.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1' || !/^[0-9a-z]+$/.test(parts[1])) return undefined;
  const seq = parseInt(parts[1], 36);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/**
 * Takes one status event for the instance `prev` describes (undefined: not known yet). Returns
 * the instance after it, or `prev` itself when the event is not news (a duplicate, an older
 * position): compare by identity to tell. `latestRevisionId` fills in the target an event of
 * an older agent leaves out.
 */
export function applyStatusEvent<C extends ClusterRef>(
  prev: RolloutInstance<C> | undefined,
  e: FoldableStatusEvent<C>,
  latestRevisionId: string | null = null,
): RolloutInstance<C> {
  const seq = cursorSequence(e.cursor) ?? null;
  if (prev?.cursor === e.cursor) return prev;
  if (prev && seq !== null && prev.seq !== null && seq <= prev.seq) return prev;
  const updating = e.state === 'UPDATING';
  const target = e.targetRevisionId;
  const failedRevisionId =
    e.previousState === 'UPDATING' && !updating && prev?.targetRevisionId && e.revisionId !== prev.targetRevisionId
      ? prev.targetRevisionId
      : e.state === 'FAILED' && target
        ? target
        : updating
          ? null
          : (prev?.failedRevisionId ?? null);
  return {
    id: e.instance.id,
    cluster: e.instance.cluster,
    state: e.state,
    revisionId: e.revisionId ?? (updating ? (prev?.revisionId ?? null) : null),
    targetRevisionId: updating ? (target ?? latestRevisionId) : e.state === 'FAILED' ? target : null,
    message: e.message ?? (updating ? null : (prev?.message ?? null)),
    failedRevisionId,
    cursor: e.cursor,
    seq: seq ?? prev?.seq ?? null,
  };
}

/**
 * Takes what a query lists: it describes the instances the stream has not reported, and only
 * those; the ones the stream has reported are kept as they are, listed or not. Returns a new map
 * in the order of `current` then `listed`; `current` is not changed.
 */
export function applyListedInstances<C extends ClusterRef>(
  current: ReadonlyMap<string, RolloutInstance<C>>,
  listed: readonly ListedInstance<C>[],
  latestRevisionId: string | null = null,
): Map<string, RolloutInstance<C>> {
  const next = new Map<string, RolloutInstance<C>>();
  for (const [id, i] of current) if (i.cursor !== null) next.set(id, i);
  for (const i of listed) {
    if (next.has(i.id)) continue;
    next.set(i.id, {
      id: i.id,
      cluster: i.cluster,
      state: i.state,
      revisionId: i.revisionId,
      targetRevisionId: i.targetRevisionId ?? (i.state === 'UPDATING' ? latestRevisionId : null),
      message: null,
      failedRevisionId: i.state === 'FAILED' ? i.targetRevisionId : null,
      cursor: null,
      seq: null,
    });
  }
  return next;
}

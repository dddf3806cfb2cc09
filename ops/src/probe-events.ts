import {
  applyStatusEvent,
  cursorSequence,
  type ClusterRef,
  type FoldableStatusEvent,
  type RolloutInstance,
} from '@nvcf/client';

/**
 * What a status subscriber can check about the events it receives, without any secret:
 * every cursor is new (no duplicates), stream positions only grow, and per instance each
 * transition starts where the previous one ended (no gaps). Where an instance stands is
 * @nvcf/client's rollout fold, the one the CLI and the console show.
 */

/** One event as the probe's subscription selects it. */
export interface StatusEvent extends FoldableStatusEvent {
  lag: { skippedEvents: number; resumeAfter: string } | null;
}

export type EventVerdict = { kind: 'new' } | { kind: 'duplicate'; message: string } | { kind: 'gap'; message: string };

export function eventTracker() {
  const cursors = new Set<string>();
  const instances = new Map<string, RolloutInstance<ClusterRef>>();
  let lastSeq: number | undefined;
  let lastCursor: string | undefined;

  return {
    /** the cursor to resume after: the furthest position seen */
    get lastCursor() {
      return lastCursor;
    },
    /** forget the position (after CURSOR_EXPIRED: resume live), keep what was seen */
    resetPosition() {
      lastCursor = undefined;
      lastSeq = undefined;
    },
    /** Records one event; every verdict but `new` is a failure of the stream. Gaps can be several. */
    record(e: StatusEvent): EventVerdict[] {
      if (cursors.has(e.cursor))
        return [
          { kind: 'duplicate', message: `instance ${e.instance.id}: cursor ${e.cursor} (${e.state}) received again` },
        ];
      cursors.add(e.cursor);
      const out: EventVerdict[] = [];
      const seq = cursorSequence(e.cursor);
      if (seq !== undefined && lastSeq !== undefined && seq < lastSeq) {
        // delivered in stream order: an older position arriving now was skipped before
        out.push({
          kind: 'gap',
          message: `instance ${e.instance.id}: stream position ${seq} arrived after ${lastSeq}`,
        });
      }
      if (seq === undefined || lastSeq === undefined || seq > lastSeq) {
        lastSeq = seq;
        lastCursor = e.cursor;
      }
      const before = instances.get(e.instance.id);
      if (e.lag)
        out.push({
          kind: 'gap',
          message: `instance ${e.instance.id}: ${e.lag.skippedEvents} transition(s) conflated away (the subscriber fell behind)`,
        });
      else if (e.kind !== 'SNAPSHOT' && before !== undefined && (e.previousState ?? undefined) !== before.state) {
        out.push({
          kind: 'gap',
          message: `instance ${e.instance.id}: last seen ${before.state}, next event is ${e.previousState ?? 'none'} → ${e.state}`,
        });
      }
      instances.set(e.instance.id, applyStatusEvent(before, e));
      return out.length ? out : [{ kind: 'new' }];
    },
  };
}

export type EventTracker = ReturnType<typeof eventTracker>;

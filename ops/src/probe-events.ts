/**
 * What a status subscriber can check about the events it receives, without any secret:
 * every cursor is new (no duplicates), stream positions only grow, and per instance each
 * transition starts where the previous one ended (no gaps).
 */

export interface StatusEvent {
  cursor: string;
  state: string;
  previousState?: string | null;
  kind?: 'TRANSITION' | 'SNAPSHOT';
  instance: { id: string };
  lag?: { skippedEvents: number; resumeAfter: string } | null;
}

export type EventVerdict = { kind: 'new' } | { kind: 'duplicate'; message: string } | { kind: 'gap'; message: string };

/**
 * The stream sequence inside a cursor (`v1.<seq base 36>.<signature>`), or undefined for a
 * cursor of another shape. Reading it needs no key; only the gateway can verify the signature.
 */
export function cursorSequence(cursor: string): number | undefined {
  const parts = cursor.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1' || !/^[0-9a-z]+$/.test(parts[1])) return undefined;
  const seq = parseInt(parts[1], 36);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

export function eventTracker() {
  const cursors = new Set<string>();
  const states = new Map<string, string>();
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
      const before = states.get(e.instance.id);
      if (e.lag)
        out.push({
          kind: 'gap',
          message: `instance ${e.instance.id}: ${e.lag.skippedEvents} transition(s) conflated away (the subscriber fell behind)`,
        });
      else if (e.kind !== 'SNAPSHOT' && before !== undefined && (e.previousState ?? undefined) !== before) {
        out.push({
          kind: 'gap',
          message: `instance ${e.instance.id}: last seen ${before}, next event is ${e.previousState ?? 'none'} → ${e.state}`,
        });
      }
      states.set(e.instance.id, e.state);
      return out.length ? out : [{ kind: 'new' }];
    },
  };
}

export type EventTracker = ReturnType<typeof eventTracker>;

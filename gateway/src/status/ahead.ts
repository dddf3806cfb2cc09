import type { ExecutionResult } from 'graphql';
import { isPromise, type Maybe } from './results.js';

/**
 * How many of a subscription's events may be taken from its feed while results before them are
 * still computing: enough for a snapshot's or a burst's entity fetches to share one batch, few
 * enough that a subscriber holds a bounded number of results and the feed still conflates the rest.
 */
export const LOOK_AHEAD = 64;

export const asError = (err: unknown) =>
  err instanceof Error ? err : new Error('status result failed', { cause: err });

interface Slot {
  cursor: string;
  result: ExecutionResult | null;
  error: Error | null;
  /** settles (never rejects) once the result is computed */
  computed: Promise<void> | null;
}

/**
 * A subscription's results taken from its feed ahead of delivery, in feed order, some still
 * computing: the one owner of the look-ahead both deliveries share (push hands results over as
 * they complete, pull waits for the oldest). Results complete in any order; they are handed
 * over in the order their events were taken, and a failed one ends the subscription in its turn.
 */
export class ResultsAhead {
  private slots: Slot[] = [];

  /** `settled` is called as each computing result completes (push delivers what it can then) */
  constructor(private readonly settled: () => void = () => {}) {}

  get size() {
    return this.slots.length;
  }

  /** whether another event may be taken from the feed */
  get hasRoom() {
    return this.slots.length < LOOK_AHEAD;
  }

  /** whether the oldest result is still computing: the time to take the events behind it */
  get computing() {
    const head = this.slots[0];
    return !!head && !head.result && !head.error;
  }

  add(cursor: string, r: Maybe<ExecutionResult>) {
    if (!isPromise(r)) {
      this.slots.push({ cursor, result: r, error: null, computed: null });
      return;
    }
    const slot: Slot = { cursor, result: null, error: null, computed: null };
    const slots = this.slots;
    slot.computed = r.then(
      (v) => void (slot.result = v),
      (err: unknown) => void (slot.error = asError(err)),
    );
    // results cleared away (the subscription ended) are not announced
    void slot.computed.then(() => this.slots === slots && this.settled());
    this.slots.push(slot);
  }

  /** The oldest result once computed (null while it computes or when none is ahead); throws its error. */
  take(): { result: ExecutionResult; cursor: string } | null {
    const head = this.slots[0];
    if (!head || (!head.result && !head.error)) return null;
    this.slots.shift();
    if (head.error) throw head.error;
    return { result: head.result!, cursor: head.cursor };
  }

  /** Settles once the oldest result is computed (at once when it is, or when none is ahead). */
  async oldest(): Promise<void> {
    await this.slots[0]?.computed;
  }

  /** The subscription ended: nothing ahead is delivered any more. */
  clear() {
    this.slots = [];
  }
}

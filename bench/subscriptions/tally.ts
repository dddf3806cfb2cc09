// Deliveries counted per subscriber and event: a duplicate on one subscriber must not hide a loss
// on another, as it would in one total compared with what was expected.

export interface Tallied {
  /** distinct (subscriber, event) deliveries */
  delivered: number;
  /** published events a live subscriber never received */
  lost: number;
  /** deliveries of an event a subscriber had already received */
  duplicates: number;
  /** times a subscriber dropped its subscription and resumed from its last cursor */
  resumes: number;
  /** events first received after a resume that were published before it: what the cursor recovered */
  replayed: number;
}

/**
 * One step's deliveries: `subscribers` × `events` (each event numbered 0…events-1 in its message;
 * where subscribers receive different events, as each tenant its own, every subscriber's events
 * are numbered from 0 in its own sequence).
 */
export class DeliveryTally {
  private readonly seen: Uint8Array;
  /** per subscriber: how many of its events were published when it last resumed (0: never resumed) */
  private readonly resumedAt: Uint32Array;
  private distinct = 0;
  private repeated = 0;
  private resumes = 0;
  private replayed = 0;
  constructor(
    readonly subscribers: number,
    readonly events: number,
  ) {
    this.seen = new Uint8Array(subscribers * events);
    this.resumedAt = new Uint32Array(subscribers);
  }

  /** Counts a delivery of event `n` to subscriber `i`; true when it is the first one. */
  record(i: number, n: number): boolean {
    if (!Number.isInteger(n) || n < 0 || n >= this.events) return false;
    const at = i * this.events + n;
    if (this.seen[at]) {
      this.repeated++;
      return false;
    }
    this.seen[at] = 1;
    this.distinct++;
    if (n < this.resumedAt[i]) this.replayed++;
    return true;
  }

  /**
   * Subscriber `i` resumed from its last cursor when the first `publishedBefore` of its events
   * had been published: those it had not received yet must now arrive through the replay, and
   * any it had received already must not arrive again (counted as duplicates by `record`).
   */
  resumed(i: number, publishedBefore: number) {
    this.resumes++;
    this.resumedAt[i] = Math.min(publishedBefore, this.events);
  }

  get delivered() {
    return this.distinct;
  }

  /**
   * Losses are counted over the subscribers still live and the events the bus acknowledged for
   * each (`published(n, i)`: event `n` of subscriber `i`'s sequence); an event whose publish
   * failed is expected by no one.
   */
  tally(live: (i: number) => boolean, published: (n: number, i: number) => boolean): Tallied {
    let lost = 0;
    for (let i = 0; i < this.subscribers; i++) {
      if (!live(i)) continue;
      for (let n = 0, at = i * this.events; n < this.events; n++, at++) if (!this.seen[at] && published(n, i)) lost++;
    }
    return {
      delivered: this.distinct,
      lost,
      duplicates: this.repeated,
      resumes: this.resumes,
      replayed: this.replayed,
    };
  }
}

// Deliveries counted per subscriber and event: a duplicate on one subscriber must not hide a loss
// on another, as it would in one total compared with what was expected.

export interface Tallied {
  /** distinct (subscriber, event) deliveries */
  delivered: number;
  /** published events a live subscriber never received */
  lost: number;
  /** deliveries of an event a subscriber had already received */
  duplicates: number;
}

/** One step's deliveries: `subscribers` × `events` (each event numbered 0…events-1 in its message). */
export class DeliveryTally {
  private readonly seen: Uint8Array;
  private distinct = 0;
  private repeated = 0;
  constructor(
    readonly subscribers: number,
    readonly events: number,
  ) {
    this.seen = new Uint8Array(subscribers * events);
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
    return true;
  }

  get delivered() {
    return this.distinct;
  }

  /**
   * Losses are counted over the subscribers still live and the events the bus acknowledged; an
   * event whose publish failed is expected by no one.
   */
  tally(live: (i: number) => boolean, published: (n: number) => boolean): Tallied {
    let lost = 0;
    for (let i = 0; i < this.subscribers; i++) {
      if (!live(i)) continue;
      for (let n = 0, at = i * this.events; n < this.events; n++, at++) if (!this.seen[at] && published(n)) lost++;
    }
    return { delivered: this.distinct, lost, duplicates: this.repeated };
  }
}

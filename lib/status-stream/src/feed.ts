import type { BusMessage } from '@nvcf/bus';
import type { StatusEvent } from '@nvcf/contracts';
import type { Feed, FeedEvent, FeedSink, StatusFilter, StreamEvent } from './types.js';
import type { StreamDefinition } from './definitions.js';

export interface FeedHooks<E extends StreamEvent = StatusEvent> {
  cursor(seq: number): string;
  onClose(): void;
  onDelivered(e: FeedEvent<E>): void;
  /** the error that ends a feed whose conflation map is full */
  overflow(lastCursor: string | null): Error;
}

interface Conflated<E extends StreamEvent> {
  e: FeedEvent<E>;
  skipped: number;
  resumeAfter: string;
}

/**
 * One subscriber's queue. Bounded: past `bufferEvents` queued it keeps only the newest event
 * per entity (instance, task) and marks what it skipped (the lag marker), and past
 * `maxConflated` entities it ends the feed with a resumable error. Never grows without bound,
 * never drops silently.
 */
export class SubscriberFeed<E extends StreamEvent = StatusEvent, F = StatusFilter> implements Feed<E> {
  private queue: FeedEvent<E>[] = [];
  private conflated = new Map<string, Conflated<E>>();
  /** per entity: the newest stream sequence and clock offered (one lookup per event) */
  private newest = new Map<string, { seq: number; clock: number }>();
  private waiting: { resolve: (r: IteratorResult<FeedEvent<E>>) => void; reject: (e: Error) => void } | null = null;
  private done = false;
  private error: Error | undefined;
  private lastCursor: string | null = null;
  /** push mode: offered events go straight here while it takes them (see attach) */
  private sink: FeedSink<E> | null = null;
  /** while catching up (resume or snapshot), live events wait here */
  buffering: BusMessage<E>[] | null = null;
  /**
   * A resumed feed's cursor: the client has every event up to it. This gateway's read of the
   * stream may still be behind it (just restarted, just thawed, a NATS node changed); an event
   * it reads at or before the cursor is one the client has, even for an instance the catch-up
   * did not bring (the per-instance check below cannot know those).
   */
  floor = 0;

  constructor(
    readonly tenant: string,
    readonly filter: F,
    private readonly limits: { bufferEvents: number; maxConflated: number },
    private readonly hooks: FeedHooks<E>,
    private readonly def: StreamDefinition<E, F>,
  ) {}

  /** Offers a message from any source; duplicates and stale transitions are dropped here. */
  offer(m: BusMessage<E>, kind: FeedEvent['kind'] = 'TRANSITION', live = true) {
    if (this.done) return;
    const e = m.data;
    const { def } = this;
    if (e.ncaId !== this.tenant || !def.matches(this.filter, e)) return;
    if (m.seq <= this.floor) return;
    if (live && this.buffering) {
      this.buffering.push(m);
      return;
    }
    const entity = def.entityOf(e);
    const clock = def.clockOf(e);
    const newest = this.newest.get(entity);
    if (newest) {
      if (newest.seq >= m.seq) return; // seen (replay and live overlap)
      if (newest.clock >= clock) return; // stale: older than one already queued
      newest.seq = m.seq;
      newest.clock = clock;
    } else this.newest.set(entity, { seq: m.seq, clock });
    const fe: FeedEvent<E> = { event: e, seq: m.seq, cursor: this.hooks.cursor(m.seq), kind, lag: null };
    // attached, nothing is ever queued: the event is delivered in this turn, with no promise per subscriber
    if (this.sink) {
      this.pushTo(this.sink, fe);
      return;
    }
    if (this.waiting && !this.queue.length && !this.conflated.size) {
      this.emit(fe);
      return;
    }
    if (this.queue.length < this.limits.bufferEvents && !this.conflated.size) {
      this.queue.push(fe);
      return;
    }
    const prev = this.conflated.get(entity);
    if (prev) {
      prev.e = fe;
      prev.skipped++;
      return;
    }
    if (this.conflated.size >= this.limits.maxConflated) {
      this.end(this.hooks.overflow(this.lastCursor));
      return;
    }
    this.conflated.set(entity, { e: fe, skipped: 0, resumeAfter: this.hooks.cursor(m.seq - 1) });
  }

  /** Ends catching up: buffered live events follow, minus what the catch-up already gave. */
  goLive() {
    const buffered = this.buffering ?? [];
    this.buffering = null;
    for (const m of buffered) this.offer(m, 'TRANSITION', false);
  }

  /**
   * Push mode: what is queued goes to `sink` at once, then every offered event as it comes, in
   * the turn it is offered. When `push` returns false the sink is detached: events queue and
   * conflate as for a subscriber that stopped pulling, until the next `attach` hands them over.
   * A feed that has ended says so through `sink.end` once its queue is delivered.
   */
  attach(sink: FeedSink<E>) {
    this.sink = sink;
    while (this.sink === sink) {
      const fe = this.take();
      if (!fe) break;
      this.pushTo(sink, fe);
    }
    if (this.done && this.sink === sink) this.finish(sink);
  }

  private pushTo(sink: FeedSink<E>, fe: FeedEvent<E>): boolean {
    this.lastCursor = fe.cursor;
    this.hooks.onDelivered(fe);
    if (sink.push(fe)) return true;
    if (this.sink === sink) this.sink = null;
    return false;
  }

  private finish(sink: FeedSink<E>) {
    this.sink = null;
    const err = this.error;
    this.error = undefined;
    sink.end(err);
  }

  private emit(fe: FeedEvent<E>) {
    const w = this.waiting!;
    this.waiting = null;
    this.lastCursor = fe.cursor;
    this.hooks.onDelivered(fe);
    w.resolve({ value: fe, done: false });
  }

  private take(): FeedEvent<E> | undefined {
    const next = this.queue.shift();
    if (next || !this.conflated.size) return next;
    // drain the conflated entities in stream order; each says what it skipped
    const entries = [...this.conflated.values()].sort((a, b) => a.e.seq - b.e.seq);
    this.conflated.clear();
    this.queue = entries.map((c) => ({
      ...c.e,
      lag: c.skipped ? { skippedEvents: c.skipped, resumeAfter: c.resumeAfter } : null,
    }));
    return this.queue.shift();
  }

  poll(): FeedEvent<E> | undefined {
    const fe = this.take();
    if (fe) {
      this.lastCursor = fe.cursor;
      this.hooks.onDelivered(fe);
    }
    return fe;
  }

  next(): Promise<IteratorResult<FeedEvent<E>>> {
    const fe = this.poll();
    if (fe) return Promise.resolve({ value: fe, done: false });
    if (this.done) {
      const err = this.error;
      this.error = undefined;
      return err ? Promise.reject(err) : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  end(err?: Error) {
    if (this.done) return;
    this.done = true;
    this.error = err;
    this.hooks.onClose();
    if (this.sink) this.finish(this.sink);
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      if (err) {
        this.error = undefined;
        w.reject(err);
      } else w.resolve({ value: undefined, done: true });
    }
  }

  return(): Promise<IteratorResult<FeedEvent<E>>> {
    this.queue = [];
    this.conflated.clear();
    this.error = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

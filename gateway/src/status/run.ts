import type { ExecutionResult } from 'graphql';
import type { Feed, FeedEvent, FeedSink, StreamEvent } from '@nvcf/status-stream';
import type { ResultSink, StatusRun } from './execute.js';
import { isPromise, type StatusResults } from './results.js';
import type { SchemaWatch } from './schema-watch.js';

const asError = (err: unknown) => (err instanceof Error ? err : new Error('status result failed', { cause: err }));
const done = { done: true as const, value: undefined };
/**
 * How many of a subscription's events may be taken from its feed while results before them are
 * still computing: enough for a snapshot's or a burst's entity fetches to share one batch, few
 * enough that a subscriber holds a bounded number of results and the feed still conflates the rest.
 */
const LOOK_AHEAD = 64;

/**
 * An open status subscription: its feed, its results and its watch on the schema, delivered by
 * pull (`events`, for graphql-sse and tests) or by push (the WebSocket path).
 */
export class FeedRun implements StatusRun {
  readonly events: StatusRun['events'];

  constructor(
    private readonly feed: Feed<StreamEvent>,
    private readonly results: StatusResults,
    private readonly watch: SchemaWatch,
  ) {
    const events: StatusRun['events'] = {
      next: () => this.pull(),
      return: async () => {
        this.watch.untrack();
        await this.feed.return!();
        return done;
      },
      [Symbol.asyncIterator]: () => events,
    };
    this.events = events;
  }

  private async pull(): Promise<IteratorResult<{ result: ExecutionResult; cursor: string }>> {
    const { watch } = this;
    const ended = watch.ended();
    if (ended) return ended;
    let r: IteratorResult<FeedEvent<StreamEvent>>;
    try {
      r = await this.feed.next();
    } catch (err) {
      watch.untrack();
      const ended = watch.ended();
      if (ended) return ended;
      throw err;
    }
    const changed = watch.ended();
    if (changed) return changed;
    if (r.done) {
      watch.untrack();
      return done;
    }
    const result = await this.results.of(r.value);
    return watch.ended() ?? { done: false, value: { result, cursor: r.value.cursor } };
  }

  push(out: ResultSink): () => void {
    const { feed, results, watch } = this;
    let open = true;
    /** results taken from the feed, not yet handed to `out`, in feed order (some still computing) */
    const ahead: { cursor: string; result: ExecutionResult | null }[] = [];
    /** the feed hands events to `sink` (it detaches it when a push returns false) */
    let attached = false;
    /** `out` refused the last result: nothing more until `resume` */
    let full = false;
    /** the feed ended while results were still ahead: ends once they are delivered */
    let feedEnded: { err?: Error } | null = null;
    const end = (err?: Error) => {
      if (!open) return;
      open = false;
      watch.untrack();
      out.end(err);
    };
    watch.pushTo(end);
    const flush = () => {
      while (open && !full && ahead.length) {
        const { cursor, result } = ahead[0];
        if (!result) break;
        ahead.shift();
        if (!out.push(result, cursor)) full = true;
      }
      if (!open) return;
      if (feedEnded && !ahead.length) end(feedEnded.err);
      else if (!full && !attached && !feedEnded && ahead.length < LOOK_AHEAD) {
        attached = true;
        feed.attach(sink);
      }
    };
    const sink: FeedSink<StreamEvent> = {
      push: (fe) => {
        if (!open) return false;
        // runs inside the stream's read of the bus: whatever fails here ends this subscription only
        try {
          const r = results.of(fe);
          if (!isPromise(r) && !ahead.length && !full) {
            if (out.push(r, fe.cursor)) return true;
            full = true;
            return (attached = false);
          }
          // still computing (entity fields from the supergraph): the events behind it are taken now
          // too, so that their fetches join its batch, and delivered in order as they complete
          const slot = { cursor: fe.cursor, result: isPromise(r) ? null : r };
          ahead.push(slot);
          if (isPromise(r))
            r.then((v) => {
              slot.result = v;
              flush();
            }).catch((err: unknown) => end(asError(err)));
          // a full `out` takes nothing ahead: the feed queues and conflates until it drains
          if (ahead.length < LOOK_AHEAD && !full) return true;
          return (attached = false);
        } catch (err) {
          end(asError(err));
          return (attached = false);
        }
      },
      end: (err) => {
        attached = false;
        if (ahead.length) feedEnded = { err };
        else end(err);
      },
    };
    attached = true;
    feed.attach(sink);
    return () => {
      full = false;
      flush();
    };
  }
}

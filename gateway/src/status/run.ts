import type { ExecutionResult } from 'graphql';
import type { Feed, FeedEvent, FeedSink, StreamEvent } from '@nvcf/status-stream';
import type { ResultSink, StatusRun } from './execute.js';
import { isPromise, type Maybe, type StatusResults } from './results.js';
import type { SchemaWatch } from './schema-watch.js';
import { asError, ResultsAhead } from './ahead.js';

const done = { done: true as const, value: undefined };

/**
 * An open status subscription: its feed, its results and its watch on the schema, delivered by
 * pull (`events`, for graphql-sse and tests) or by push (the WebSocket path). Either way, while
 * a result waits on its entity fetch the events behind it are taken too (`ResultsAhead`), so
 * that a snapshot's or a burst's fetches join one batch instead of following one another.
 */
export class FeedRun implements StatusRun {
  readonly events: StatusRun['events'];
  /** the pull's results ahead (push keeps its own) */
  private readonly pulled = new ResultsAhead();

  constructor(
    private readonly feed: Feed<StreamEvent>,
    private readonly results: StatusResults,
    private readonly watch: SchemaWatch,
  ) {
    const events: StatusRun['events'] = {
      next: () => this.pull(),
      return: async () => {
        this.pulled.clear();
        this.watch.untrack();
        await this.feed.return!();
        return done;
      },
      [Symbol.asyncIterator]: () => events,
    };
    this.events = events;
  }

  private async pull(): Promise<IteratorResult<{ result: ExecutionResult; cursor: string }>> {
    const { watch, pulled } = this;
    const ended = watch.ended();
    if (ended) return ended;
    // the feed's end (or error) is pulled only once the results ahead of it are delivered
    if (!pulled.size) {
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
      const result = this.results.of(r.value);
      // computed now (no remote fields): nothing to batch, no look-ahead
      if (!isPromise(result)) return { done: false, value: { result, cursor: r.value.cursor } };
      pulled.add(r.value.cursor, result);
    }
    // still computing: what the feed holds already is taken now, so that its fetches join the
    // batch; what arrives later stays in the feed, which conflates it for a slow reader
    while (pulled.computing && pulled.hasRoom) {
      const fe = this.feed.poll();
      if (!fe) break;
      pulled.add(fe.cursor, this.results.of(fe));
    }
    await pulled.oldest();
    const next = pulled.take();
    return watch.ended() ?? (next ? { done: false, value: next } : done);
  }

  push(out: ResultSink): () => void {
    const { feed, results, watch } = this;
    let open = true;
    /** the feed hands events to `sink` (it detaches it when a push returns false) */
    let attached = false;
    /** `out` refused the last result: nothing more until `resume` */
    let full = false;
    /** the feed ended while results were still ahead: ends once they are delivered */
    let feedEnded: { err?: Error } | null = null;
    const end = (err?: Error) => {
      if (!open) return;
      open = false;
      ahead.clear();
      watch.untrack();
      out.end(err);
    };
    const flush = () => {
      try {
        while (open && !full) {
          const next = ahead.take();
          if (!next) break;
          if (!out.push(next.result, next.cursor)) full = true;
        }
      } catch (err) {
        return end(asError(err));
      }
      if (!open) return;
      if (feedEnded && !ahead.size) end(feedEnded.err);
      else if (!full && !attached && !feedEnded && ahead.hasRoom) {
        attached = true;
        feed.attach(sink);
      }
    };
    const ahead = new ResultsAhead(flush);
    watch.pushTo(end);
    const sink: FeedSink<StreamEvent> = {
      push: (fe) => {
        if (!open) return false;
        // runs inside the stream's read of the bus: whatever fails here ends this subscription only
        let r: Maybe<ExecutionResult>;
        try {
          r = results.of(fe);
        } catch (err) {
          end(asError(err));
          return (attached = false);
        }
        // nothing ahead of it: a result computed now goes out in this turn, with no promise
        if (!isPromise(r) && !ahead.size && !full) {
          if (out.push(r, fe.cursor)) return true;
          full = true;
          return (attached = false);
        }
        // still computing (entity fields from the supergraph), or behind one that is: the events
        // behind it are taken now too, so that their fetches join its batch
        ahead.add(fe.cursor, r);
        // a full `out` takes nothing ahead: the feed queues and conflates until it drains
        if (ahead.hasRoom && !full) return true;
        return (attached = false);
      },
      end: (err) => {
        attached = false;
        if (ahead.size) feedEnded = { err };
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

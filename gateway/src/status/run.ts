import type { ExecutionResult } from 'graphql';
import type { Feed, FeedEvent, FeedSink } from '@nvcf/status-stream';
import type { ResultSink, StatusRun } from './execute.js';
import { isPromise, type Maybe, type StatusResults } from './results.js';
import type { SchemaWatch } from './schema-watch.js';
import { pulled } from './pulled.js';

const asError = (err: unknown) => (err instanceof Error ? err : new Error('status result failed', { cause: err }));

/** An event taken from the feed whose result waits to be delivered, in stream order. */
interface Held {
  fe: FeedEvent;
  result?: ExecutionResult;
  error?: Error;
  settled: boolean;
}

/**
 * An open status subscription: its feed, its results and its watch on the schema. Results are
 * pushed (the WebSocket path); `events` pulls them through the same push, for graphql-sse and tests.
 */
export class FeedRun implements StatusRun {
  readonly events: StatusRun['events'];
  /** ends push mode from outside (the client went away): nothing held is delivered any more */
  private stop: (() => void) | null = null;

  constructor(
    private readonly feed: Feed,
    private readonly results: StatusResults,
    private readonly watch: SchemaWatch,
  ) {
    this.events = pulled(
      (out) => this.push(out),
      async () => {
        this.stop?.();
        this.watch.untrack();
        await this.feed.return!();
      },
    );
  }

  /**
   * Results wait on the supergraph only for remote fields, and each event's fetch takes a round
   * trip: taking one event at a time, a subscription would get one event per round trip and
   * conflate the rest. So it takes events ahead while their results are computed (as many as
   * `results.takesAhead` allows, per subscription and for the replica), and delivers them strictly
   * in stream order as the oldest settles. The feed stops handing over events only when the sink
   * is full or that bound is reached: it queues and conflates then, as before.
   */
  push(out: ResultSink): () => void {
    const { feed, results, watch } = this;
    const held: Held[] = [];
    let open = true;
    /** the feed pushes to the sink (attach) until a push of ours returns false */
    let attached = false;
    /** the sink refused a result: nothing more is delivered until `resume` */
    let blocked = false;
    /** the feed ended while results were held: the end follows them */
    let ending: { err?: Error } | null = null;
    const end = (err?: Error) => {
      if (!open) return;
      open = false;
      held.length = 0;
      watch.untrack();
      out.end(err);
    };
    this.stop = () => end();
    watch.pushTo(end);
    // the schema changed before the first pull: ended already, with SCHEMA_CHANGED
    if (!open) return () => {};
    const attach = () => {
      attached = true;
      feed.attach(sink);
    };
    /** delivers the settled results at the head, in order, then takes more from the feed */
    const flush = () => {
      if (!open || blocked) return;
      while (held[0]?.settled) {
        const h = held.shift()!;
        if (h.error) return end(h.error);
        if (!out.push(h.result!, h.fe.cursor)) {
          blocked = true;
          return;
        }
      }
      if (ending && !held.length) return end(ending.err);
      if (!attached && !ending && results.takesAhead(held.length)) attach();
    };
    const hold = (fe: FeedEvent, r: Maybe<ExecutionResult>) => {
      if (!isPromise(r)) return void held.push({ fe, result: r, settled: true });
      const h: Held = { fe, settled: false };
      held.push(h);
      r.then(
        (v) => {
          h.result = v;
          h.settled = true;
          flush();
        },
        (err: unknown) => {
          h.error = asError(err);
          h.settled = true;
          flush();
        },
      );
    };
    const sink: FeedSink = {
      push: (fe) => {
        if (!open) return false;
        // runs inside the stream's read of the bus: whatever fails here ends this subscription only
        let r: Maybe<ExecutionResult>;
        try {
          r = results.of(fe);
        } catch (err) {
          end(asError(err));
          return false;
        }
        // nothing ahead of it: a result computed now goes out in this turn, with no promise
        if (!held.length && !blocked && !isPromise(r)) {
          if (out.push(r, fe.cursor)) return true;
          blocked = true;
        } else hold(fe, r);
        if (!blocked && results.takesAhead(held.length)) return true;
        attached = false;
        return false;
      },
      end: (err) => {
        if (held.length) ending = { err };
        else end(err);
      },
    };
    attach();
    return () => {
      if (!blocked) return;
      blocked = false;
      flush();
    };
  }
}

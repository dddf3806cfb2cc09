import type { ExecutionResult } from 'graphql';
import type { Feed, FeedEvent, FeedSink, StreamEvent } from '@nvcf/status-stream';
import type { ResultSink, StatusRun } from './execute.js';
import { isPromise, type StatusResults } from './results.js';
import type { SchemaWatch } from './schema-watch.js';

const asError = (err: unknown) => (err instanceof Error ? err : new Error('status result failed', { cause: err }));
const done = { done: true as const, value: undefined };

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
    const end = (err?: Error) => {
      if (!open) return;
      open = false;
      watch.untrack();
      out.end(err);
    };
    watch.pushTo(end);
    const sink: FeedSink<StreamEvent> = {
      push: (fe) => {
        if (!open) return false;
        // runs inside the stream's read of the bus: whatever fails here ends this subscription only
        try {
          const r = results.of(fe);
          if (!isPromise(r)) return out.push(r, fe.cursor);
          // still being computed (instance fields from the supergraph): later events queue behind it, in order
          r.then((v) => {
            if (open && out.push(v, fe.cursor)) feed.attach(sink);
          }).catch((err: unknown) => end(asError(err)));
        } catch (err) {
          end(asError(err));
        }
        return false;
      },
      end,
    };
    feed.attach(sink);
    return () => {
      if (open) feed.attach(sink);
    };
  }
}

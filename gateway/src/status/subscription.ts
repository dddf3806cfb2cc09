import type { ExecutionResult } from 'graphql';
import type { NextWriter } from '../transport/connection.js';
import { serializedResult } from './serialize.js';
import type { StatusRun } from './execute.js';

// The event's JSON as bytes, encoded once per shared result (not once per subscriber).
const encoded = new WeakMap<object, Buffer>();
function bodyOf(result: ExecutionResult): Buffer {
  let b = encoded.get(result);
  if (b === undefined) encoded.set(result, (b = Buffer.from(serializedResult(result))));
  return b;
}

const DONE = { done: true as const, value: undefined as never };

/**
 * A status subscription on a graphql-ws connection. graphql-ws owns its lifecycle: it iterates
 * this object, whose one step settles when the run ends (done, or the error its client should
 * see, which graphql-ws turns into `complete` or `error`), and calls `return()` when the client
 * sends `complete` or the socket closes. The results themselves run in push mode through the
 * connection's `next` writer, not through the iteration: each is queued in the turn its event is
 * read from the stream, as the shared payload's bytes, with no promise and no stringify per
 * subscriber and event. Both paths go through the one connection, so `complete` never overtakes
 * a `next`. A socket that asks to drain takes no more events until it does: the subscription's
 * feed queues and conflates meanwhile, instead of the connection buffering without bound.
 */
export class StatusSubscription implements AsyncIterableIterator<never> {
  private out: NextWriter | null = null;
  private ended: Promise<void> | null = null;
  private released = false;

  constructor(
    private readonly run: StatusRun,
    /** called once, when the subscription ends for whatever reason */
    private readonly release: () => void,
  ) {}

  /** Binds the subscription to its connection's writer for its id; it starts on the first `next()`. */
  attach(out: NextWriter) {
    this.out = out;
  }

  async next(): Promise<IteratorResult<never>> {
    if (this.released) return DONE;
    const out = this.out;
    if (!out) throw new Error('a status subscription was iterated before it was attached to its connection');
    try {
      await (this.ended ??= this.pump(out));
      return DONE;
    } finally {
      this.end();
      // ended by the socket going away, the feed is still open: close it (idempotent otherwise)
      await this.run.events.return?.();
    }
  }

  async return(): Promise<IteratorResult<never>> {
    this.end();
    await this.run.events.return?.();
    return DONE;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  private end() {
    if (this.released) return;
    this.released = true;
    this.release();
  }

  /** Settles when the run ends: done, failed, or its socket gone. */
  private pump(out: NextWriter): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const resume = this.run.push({
        push: (result) => {
          if (out.write(bodyOf(result))) return true;
          if (out.open) void out.writable().then(resume);
          else resolve();
          return false;
        },
        end: (err) => (err ? reject(err) : resolve()),
      });
    });
  }
}

import type { ExecutionResult } from 'graphql';
import type { ResultSink, StatusRun } from './execute.js';

type Item = { result: ExecutionResult; cursor: string };
const done = { done: true as const, value: undefined };
/**
 * Results a pulled subscription holds that its client has not asked for yet. Past it the run
 * stops taking events, and its feed queues and conflates them, as for a slow socket.
 */
const PULL_AHEAD = 16;

/**
 * A pushed run as an async iterator (graphql-sse and tests pull): results arrive in push mode, so
 * a pulled subscription resolves its events' remote fields ahead just the same, and queue here
 * until pulled. Pushing starts at the first pull; `close` runs on `return()`.
 */
export function pulled(push: (out: ResultSink) => () => void, close: () => Promise<void>): StatusRun['events'] {
  const items: Item[] = [];
  let waiting: { resolve: (r: IteratorResult<Item>) => void; reject: (err: Error) => void } | null = null;
  let ended: { err?: Error } | null = null;
  let resume: (() => void) | null = null;
  let full = false;
  const sink: ResultSink = {
    push(result, cursor) {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve({ done: false, value: { result, cursor } });
        return true;
      }
      items.push({ result, cursor });
      return !(full = items.length >= PULL_AHEAD);
    },
    end(err) {
      ended = { err };
      if (!waiting) return;
      const w = waiting;
      waiting = null;
      settle(w);
    },
  };
  /** the end once every result before it was taken: the error once, then done */
  const settle = (w: NonNullable<typeof waiting>) => {
    const err = ended!.err;
    ended = {};
    if (err) w.reject(err);
    else w.resolve(done);
  };
  const events: StatusRun['events'] = {
    next() {
      resume ??= push(sink);
      const item = items.shift();
      if (item) {
        if (full) {
          full = false;
          resume();
        }
        return Promise.resolve({ done: false, value: item });
      }
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        if (ended) {
          waiting = null;
          settle({ resolve, reject });
        }
      });
    },
    async return() {
      items.length = 0;
      await close();
      return done;
    },
    [Symbol.asyncIterator]: () => events,
  };
  return events;
}

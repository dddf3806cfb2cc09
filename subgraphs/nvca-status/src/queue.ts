/**
 * A push-to-pull queue for one subscription. `return()` releases the subscription at once
 * (an async generator would only clean up at its next event), and the buffer is bounded.
 */
export function pushQueue<T>(opts: { limit: number; onClose: () => void; onOverflow: () => Error }): AsyncIterableIterator<T> & { push(v: T): void; end(err?: Error): void } {
  const buf: T[] = [];
  let waiting: ((r: IteratorResult<T>) => void) | null = null;
  let failWaiting: ((e: Error) => void) | null = null;
  let done = false;
  let error: Error | undefined;
  const close = () => { if (!done) { done = true; opts.onClose(); } };
  const it = {
    push(v: T) {
      if (done) return;
      if (waiting) { const w = waiting; waiting = null; failWaiting = null; w({ value: v, done: false }); return; }
      if (buf.length >= opts.limit) { it.end(opts.onOverflow()); return; }
      buf.push(v);
    },
    end(err?: Error) {
      if (done) return;
      error = err;
      close();
      if (waiting) {
        const w = waiting, f = failWaiting;
        waiting = null; failWaiting = null;
        if (err && !buf.length) f!(err); else w({ value: undefined as T, done: true });
      }
    },
    next(): Promise<IteratorResult<T>> {
      if (buf.length) return Promise.resolve({ value: buf.shift()!, done: false });
      if (done) {
        if (error) { const e = error; error = undefined; return Promise.reject(e); }
        return Promise.resolve({ value: undefined as T, done: true });
      }
      return new Promise((resolve, reject) => { waiting = resolve; failWaiting = reject; });
    },
    return(): Promise<IteratorResult<T>> {
      buf.length = 0;
      error = undefined;
      close();
      if (waiting) { const w = waiting; waiting = null; w({ value: undefined as T, done: true }); }
      return Promise.resolve({ value: undefined as T, done: true });
    },
    [Symbol.asyncIterator]() { return it; },
  };
  return it;
}

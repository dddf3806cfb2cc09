/** A push-to-pull queue: callbacks push, one consumer awaits; an error or end is delivered after what came before it. */
export class Channel<T> {
  private readonly items: T[] = [];
  private waiting?: () => void;
  private ended = false;
  private failure?: { error: unknown };

  push(item: T) {
    this.items.push(item);
    this.wake();
  }
  end() {
    this.ended = true;
    this.wake();
  }
  /** ignored once ended: a connection closing after `complete` is not a failure */
  fail(error: unknown) {
    if (this.ended) return;
    this.failure ??= { error };
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length) {
        yield this.items.shift()!;
        continue;
      }
      if (this.failure) throw this.failure.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  private wake() {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }
}

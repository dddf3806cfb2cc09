type Disposer = () => unknown;

/**
 * What Node 20 lacks of AsyncDisposableStack: things are disposed in reverse order of
 * adoption, every one of them even when an earlier one fails.
 */
export class DisposalStack implements AsyncDisposable {
  private items: Disposer[] = [];

  use<T extends AsyncDisposable | { dispose(): unknown }>(value: T): T {
    const v: AsyncDisposable | { dispose(): unknown } = value;
    this.items.push(Symbol.asyncDispose in v ? () => v[Symbol.asyncDispose]() : () => v.dispose());
    return value;
  }

  defer(fn: Disposer): void {
    this.items.push(fn);
  }

  /** Transfers everything to a new stack (so a constructor can hand over ownership). */
  move(): DisposalStack {
    const next = new DisposalStack();
    next.items = this.items;
    this.items = [];
    return next;
  }

  async disposeAsync(): Promise<void> {
    const errors: unknown[] = [];
    while (this.items.length) {
      try {
        await this.items.pop()!();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length) throw new AggregateError(errors, 'several disposers failed');
  }

  async [Symbol.asyncDispose]() {
    await this.disposeAsync();
  }
}

/**
 * Builds something that owns resources: `steps` registers each on the stack the moment it exists,
 * and if a later step throws (a port in use, a store down), what was started is released in
 * reverse before the error goes on. On success the result owns them: its own dispose releases
 * them in the order it needs, and the stack is dropped.
 */
export async function build<T>(steps: (stack: DisposalStack) => Promise<T>): Promise<T> {
  const stack = new DisposalStack();
  try {
    return await steps(stack);
  } catch (err) {
    // the build's error is the one to report; a cleanup failure must not mask it
    await stack.disposeAsync().catch(() => {});
    throw err;
  }
}

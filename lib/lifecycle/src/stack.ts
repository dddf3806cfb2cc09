type Disposer = () => unknown | Promise<unknown>;

/**
 * What Node 20 lacks of AsyncDisposableStack: things are disposed in reverse order of
 * adoption, every one of them even when an earlier one fails.
 */
export class DisposalStack implements AsyncDisposable {
  private items: Disposer[] = [];

  use<T extends AsyncDisposable | { dispose(): unknown }>(value: T): T {
    this.items.push(
      Symbol.asyncDispose in value
        ? () => (value)[Symbol.asyncDispose]()
        : () => (value).dispose(),
    );
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

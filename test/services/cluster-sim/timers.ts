/**
 * One pending step per key (an object at a generation). A step that fails (the API server
 * is restarting) runs again shortly: controllers retry, they do not give up.
 */
export class Steps {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly log: (msg: string) => void,
    private readonly retryMs = 500,
  ) {}

  has(key: string): boolean {
    return this.pending.has(key);
  }

  after(key: string, ms: number, step: () => Promise<void>): void {
    if (this.stopped) return;
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        step().catch((err: Error) => {
          this.log(`${key}: ${err.message}; again in ${this.retryMs} ms`);
          if (!this.pending.has(key)) this.after(key, this.retryMs, step);
        });
      }, ms),
    );
  }

  cancel(prefix: string): void {
    for (const [key, t] of this.pending)
      if (key.startsWith(prefix)) {
        clearTimeout(t);
        this.pending.delete(key);
      }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }
}

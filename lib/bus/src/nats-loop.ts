import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { errorText, isOutage } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

// Notifications after which the iterator will not recover soon on its own: the client's own
// recovery re-checks the consumer with a 30 s backoff, far longer than a NATS restart takes.
const REOPEN_ON = new Set(['heartbeats_missed', 'consumer_deleted', 'consumer_not_found', 'stream_not_found']);

/**
 * How long each pull waits on the server. The client's idle heartbeat is half of it, and it is the
 * only thing that notices a pull the server dropped: a stream or consumer leader change answers
 * pending pulls with a 409 the client ignores, so a consumer stalls until two heartbeats are
 * missed. The default (30 s) left a tail silent for 30 s after a leader step-down; 5 s bounds
 * that at ~5 s for one small pull request per consumer every 5 s when idle.
 */
export const PULL_EXPIRES_MS = 5_000;

export interface LoopOptions {
  /** names the loop in logs */
  what: string;
  open: () => Promise<ConsumerMessages>;
  onMessage: (m: JsMsg) => void | Promise<void>;
  /** true once the connection is closed for good: no point reopening */
  closed: () => boolean;
  beforeStop?: () => void;
  /** waits up to `graceMs` for handlers in flight (a draining stop) */
  settle?: (graceMs: number) => Promise<void>;
  /** awaited by stop() once the loop has ended */
  afterStop?: () => Promise<void>;
}

/**
 * Keeps one consumer iterator open until stopped: when the iterator ends or fails (server
 * restart, consumer lost, heartbeats missed) it opens a new one, with a short backoff.
 */
export class ConsumeLoop {
  private iter: ConsumerMessages | undefined;
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LoopOptions) {}

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * Opens the first iterator, then loops in the background. A bad stream or config fails the
   * caller; an outage (a JetStream request timing out while a cluster elects its leaders) does not:
   * the loop keeps opening with backoff, as it does after losing a server later.
   */
  async start(): Promise<void> {
    let first: ConsumerMessages | undefined;
    try {
      first = await this.opts.open();
    } catch (err) {
      if (!isOutage(err)) throw err;
      log.warn(`${this.opts.what}: ${errorText(err)}; opening it in the background`);
    }
    this.running = this.run(first);
  }

  /** Drop the current iterator and open a fresh one (after a reconnect, for instance). */
  restart(): void {
    void this.iter?.close();
  }

  /** Stops pulling; returns once the loop has handed back everything it had buffered. */
  async stop(opts: { graceMs?: number } = {}): Promise<void> {
    this.abort.abort();
    this.opts.beforeStop?.();
    void this.iter?.close();
    await this.running;
    if (opts.graceMs) await this.opts.settle?.(opts.graceMs);
    await this.opts.afterStop?.();
  }

  private async run(first: ConsumerMessages | undefined): Promise<void> {
    let next: ConsumerMessages | undefined = first;
    for (let attempt = 0; !this.stopped && !this.opts.closed(); attempt++) {
      try {
        const iter: ConsumerMessages = next ?? (await this.opts.open());
        next = undefined;
        this.iter = iter;
        if (this.stopped)
          void iter.close(); // stop() raced the open: drain what arrived and leave
        else attempt = 0;
        void this.watch(iter);
        for await (const m of iter) await this.opts.onMessage(m);
      } catch (err) {
        if (!this.stopped && !this.opts.closed()) log.warn(`${this.opts.what}: ${errorText(err)}; reopening`);
      } finally {
        this.iter = undefined;
      }
      if (!this.stopped) await sleep(Math.min(250 * 2 ** attempt, 5000), this.abort.signal);
    }
  }

  private async watch(iter: ConsumerMessages): Promise<void> {
    try {
      for await (const s of iter.status()) {
        if (!REOPEN_ON.has(s.type)) continue;
        if (!this.stopped) log.warn(`${this.opts.what}: ${s.type}; reopening`);
        void iter.close();
        return;
      }
    } catch {
      // the status iterator ends with its consumer; nothing to recover here
    }
  }
}

/** At most `size` holders at once; `close` turns every waiter (and later taker) away. */
export class Slots {
  private used = 0;
  private closed = false;
  private readonly waiters: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async take(): Promise<boolean> {
    while (this.used >= this.size && !this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.closed) return false;
    this.used++;
    return true;
  }

  release(): void {
    this.used--;
    this.waiters.shift()?.();
  }

  close(): void {
    this.closed = true;
    for (const wake of this.waiters.splice(0)) wake();
  }
}

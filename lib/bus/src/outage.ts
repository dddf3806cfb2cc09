import { errorText } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

export interface OutageBackoff {
  /** wait before the first probe after an outage is noticed */
  initialMs: number;
  /** the longest wait between probes */
  maxMs: number;
}

const DEFAULT_OUTAGE_BACKOFF: OutageBackoff = { initialMs: 500, maxMs: 30_000 };

// while a dependency stays away, a reminder now and then rather than a line per probe
const REMIND_EVERY_MS = 60_000;

/** How a handler call passed the gate: as the one probe of a dependency that is down, or normally. */
export type Pass = 'probe' | 'normal' | 'stopped';

/**
 * One consumer's view of its dependencies. While they are up every handler runs at once; once a
 * handler fails on an outage the gate closes: the messages in hand are kept (not redelivered, so
 * their delivery counts do not grow), one of them at a time probes the dependency with exponential
 * backoff and jitter up to `maxMs`, and the first success reopens the gate for all. Since a durable
 * delivers no more than its max ack pending, holding its messages also stops the pulling.
 */
export class OutageGate {
  private down:
    { since: number; attempt: number; timer?: NodeJS.Timeout; probeDue: boolean; remindAt: number } | undefined;
  private readonly waiters: ((pass: Pass) => void)[] = [];
  private stopped = false;

  constructor(
    private readonly what: string,
    private readonly backoff: OutageBackoff = DEFAULT_OUTAGE_BACKOFF,
    private readonly onChange: (down: boolean) => void = () => {},
  ) {}

  /** Waits until a handler may run: at once while up; while down, until it is this call's turn to probe or the gate reopens. */
  async pass(): Promise<Pass> {
    for (;;) {
      if (this.stopped) return 'stopped';
      const down = this.down;
      if (!down) return 'normal';
      if (down.probeDue) {
        down.probeDue = false;
        return 'probe';
      }
      const pass = await new Promise<Pass>((resolve) => this.waiters.push(resolve));
      if (pass !== 'normal') return pass;
    }
  }

  /** A handler succeeded: whatever was down is back. */
  succeeded(): void {
    const down = this.down;
    if (!down) return;
    clearTimeout(down.timer);
    this.down = undefined;
    log.info(`${this.what}: dependency back after ${Math.round((Date.now() - down.since) / 1000)} s; resuming`);
    this.onChange(false);
    for (const wake of this.waiters.splice(0)) wake('normal');
  }

  /** A handler failed on an outage; `pass` is how it got through the gate. */
  failed(err: unknown, pass: Pass): void {
    const now = Date.now();
    if (!this.down) {
      this.down = { since: now, attempt: 0, probeDue: false, remindAt: now + REMIND_EVERY_MS };
      log.warn(`${this.what}: a dependency is unavailable (${errorText(err)}); holding messages until it is back`);
      this.onChange(true);
      this.schedule();
    } else if (pass === 'probe') {
      this.down.attempt++;
      if (now >= this.down.remindAt) {
        this.down.remindAt = now + REMIND_EVERY_MS;
        log.warn(
          `${this.what}: dependency still unavailable after ${Math.round((now - this.down.since) / 1000)} s (${errorText(err)})`,
        );
      }
      this.schedule();
    }
    // a handler that had started before the gate closed just waits for the probes
  }

  /** A handler failed for a reason of its own message: if it was the probe, the next waiter probes now. */
  inconclusive(pass: Pass): void {
    const down = this.down;
    if (!down || pass !== 'probe') return;
    const next = this.waiters.shift();
    if (next) next('probe');
    else down.probeDue = true;
  }

  /** Turns every waiter (and later caller) away: the consumer is stopping. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.down?.timer);
    for (const wake of this.waiters.splice(0)) wake('stopped');
  }

  private schedule(): void {
    const down = this.down!;
    const base = Math.min(this.backoff.initialMs * 2 ** down.attempt, this.backoff.maxMs);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    down.timer = setTimeout(() => {
      if (this.down !== down) return;
      const probe = this.waiters.shift();
      if (probe) probe('probe');
      else down.probeDue = true; // the next handler to arrive probes
    }, delay);
    down.timer.unref?.();
  }
}

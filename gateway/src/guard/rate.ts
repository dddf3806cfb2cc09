import { fail } from '@nvcf/errors';

/**
 * A token bucket per tenant: `rate` tokens a second up to `burst`. One tenant's flood waits
 * for its own tokens and never for another tenant's.
 */
export class TenantRate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly what: string,
  ) {}

  /** Takes a token or throws RATE_LIMITED with the seconds until the next one. */
  take(tenant: string, now = Date.now()) {
    if (!(this.rate > 0)) return;
    let b = this.buckets.get(tenant);
    if (!b) {
      if (this.buckets.size >= 100_000) this.buckets.clear();
      this.buckets.set(tenant, (b = { tokens: this.burst, at: now }));
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - b.tokens) / this.rate));
    throw fail(
      'RATE_LIMITED',
      `tenant ${tenant} sent more than ${this.rate} ${this.what} per second (burst ${this.burst}) to this gateway; retry in ${retryAfterSeconds} s`,
      {
        retryAfterSeconds,
        limit: this.rate,
        http: { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
      },
    );
  }
}

const BUCKETS_MS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

interface TenantStats {
  opened: number;
  open: number;
  delivered: number;
  lagEvents: number;
  /** per bucket, not cumulative (made cumulative when rendered): one increment per delivery */
  latency: number[];
  latencySum: number;
  latencyCount: number;
}

/** Per-tenant subscription metrics in Prometheus text format. */
export class StreamMetrics {
  private readonly tenants = new Map<string, TenantStats>();
  constructor(
    private readonly prefix = 'nvcf_status',
    /** the subscription field counted, for the help text */
    private readonly field = 'instanceStatusChanged',
  ) {}

  private of(tenant: string): TenantStats {
    let t = this.tenants.get(tenant);
    if (!t)
      this.tenants.set(
        tenant,
        (t = {
          opened: 0,
          open: 0,
          delivered: 0,
          lagEvents: 0,
          latency: new Array<number>(BUCKETS_MS.length + 1).fill(0),
          latencySum: 0,
          latencyCount: 0,
        }),
      );
    return t;
  }

  opened(tenant: string) {
    const t = this.of(tenant);
    t.open++;
    t.opened++;
  }
  closed(tenant: string) {
    this.of(tenant).open--;
  }
  openCount(tenant: string): number {
    return this.tenants.get(tenant)?.open ?? 0;
  }

  // one event reaches many subscribers in a row: its time is parsed once, not once per delivery
  private lastAt = '';
  private lastAtMs = 0;

  /** `at`: the event's ISO time (the agent's transition) */
  delivered(tenant: string, at: string, lagged: boolean) {
    const t = this.of(tenant);
    t.delivered++;
    if (lagged) t.lagEvents++;
    if (at !== this.lastAt) {
      this.lastAt = at;
      this.lastAtMs = Date.parse(at);
    }
    const ms = Math.max(0, Date.now() - this.lastAtMs);
    t.latencySum += ms;
    t.latencyCount++;
    let i = 0;
    while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]) i++;
    t.latency[i]++;
  }

  render(): string {
    const p = this.prefix;
    const out = [
      `# HELP ${p}_subscriptions_open Open ${this.field} subscriptions.`,
      `# TYPE ${p}_subscriptions_open gauge`,
      `# HELP ${p}_subscriptions_opened_total Subscriptions opened since start.`,
      `# TYPE ${p}_subscriptions_opened_total counter`,
      `# HELP ${p}_events_delivered_total Events handed to subscribers.`,
      `# TYPE ${p}_events_delivered_total counter`,
      `# HELP ${p}_lag_events_total Events delivered with a lag marker (conflated).`,
      `# TYPE ${p}_lag_events_total counter`,
      `# HELP ${p}_delivery_latency_ms Time from the agent's transition to delivery.`,
      `# TYPE ${p}_delivery_latency_ms histogram`,
    ];
    for (const [tenant, t] of this.tenants) {
      const l = `tenant="${tenant}"`;
      out.push(
        `${p}_subscriptions_open{${l}} ${t.open}`,
        `${p}_subscriptions_opened_total{${l}} ${t.opened}`,
        `${p}_events_delivered_total{${l}} ${t.delivered}`,
        `${p}_lag_events_total{${l}} ${t.lagEvents}`,
      );
      let cumulative = 0;
      BUCKETS_MS.forEach((b, i) =>
        out.push(`${p}_delivery_latency_ms_bucket{${l},le="${b}"} ${(cumulative += t.latency[i])}`),
      );
      out.push(
        `${p}_delivery_latency_ms_bucket{${l},le="+Inf"} ${t.latencyCount}`,
        `${p}_delivery_latency_ms_sum{${l}} ${t.latencySum}`,
        `${p}_delivery_latency_ms_count{${l}} ${t.latencyCount}`,
      );
    }
    return `${out.join('\n')}\n`;
  }
}

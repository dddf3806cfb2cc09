const BUCKETS_MS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

interface TenantStats {
  opened: number;
  open: number;
  delivered: number;
  lagEvents: number;
  latency: number[];
  latencySum: number;
  latencyCount: number;
}

/** Per-tenant subscription metrics in Prometheus text format. */
export class StreamMetrics {
  private readonly tenants = new Map<string, TenantStats>();
  constructor(private readonly prefix = 'nvcf_status') {}

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
          latency: BUCKETS_MS.map(() => 0),
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

  delivered(tenant: string, publishedAtMs: number, lagged: boolean) {
    const t = this.of(tenant);
    t.delivered++;
    if (lagged) t.lagEvents++;
    const ms = Math.max(0, Date.now() - publishedAtMs);
    t.latencySum += ms;
    t.latencyCount++;
    BUCKETS_MS.forEach((b, i) => {
      if (ms <= b) t.latency[i]++;
    });
  }

  render(): string {
    const p = this.prefix;
    const out = [
      `# HELP ${p}_subscriptions_open Open instanceStatusChanged subscriptions.`,
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
      BUCKETS_MS.forEach((b, i) => out.push(`${p}_delivery_latency_ms_bucket{${l},le="${b}"} ${t.latency[i]}`));
      out.push(
        `${p}_delivery_latency_ms_bucket{${l},le="+Inf"} ${t.latencyCount}`,
        `${p}_delivery_latency_ms_sum{${l}} ${t.latencySum}`,
        `${p}_delivery_latency_ms_count{${l}} ${t.latencyCount}`,
      );
    }
    return `${out.join('\n')}\n`;
  }
}

import { metrics } from '@nvcf/telemetry';

const BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

interface Series {
  count: number;
  errors: number;
  sum: number;
  buckets: number[];
}

/**
 * Requests per handler (a GraphQL operation name, an RPC method, a route): count, errors and a
 * latency histogram, in Prometheus text. Handler names come from a bounded set (the caller
 * folds unknown ones into `other`), so a client cannot grow the series without end.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();
  constructor(
    private readonly prefix: string,
    private readonly maxSeries = 500,
  ) {}

  observe(handler: string, ms: number, failed: boolean): void {
    let s = this.series.get(handler);
    if (!s) {
      if (this.series.size >= this.maxSeries && handler !== 'other') return this.observe('other', ms, failed);
      this.series.set(handler, (s = { count: 0, errors: 0, sum: 0, buckets: BUCKETS_MS.map(() => 0) }));
    }
    s.count++;
    if (failed) s.errors++;
    s.sum += ms;
    for (let i = 0; i < BUCKETS_MS.length; i++) if (ms <= BUCKETS_MS[i]) s.buckets[i]++;
  }

  /** Starts a timer; the returned function records the request when it ends. */
  start(handler: string): (failed: boolean) => void {
    const t = performance.now();
    return (failed) => this.observe(handler, performance.now() - t, failed);
  }

  render(): string {
    const p = this.prefix;
    const out = [
      `# HELP ${p}_requests_total Requests handled, by handler.`,
      `# TYPE ${p}_requests_total counter`,
      `# HELP ${p}_request_errors_total Requests that failed, by handler.`,
      `# TYPE ${p}_request_errors_total counter`,
      `# HELP ${p}_request_duration_ms Request latency, by handler.`,
      `# TYPE ${p}_request_duration_ms histogram`,
    ];
    for (const [h, s] of this.series) {
      const l = `handler="${h.replace(/["\\\n]/g, '_')}"`;
      out.push(`${p}_requests_total{${l}} ${s.count}`, `${p}_request_errors_total{${l}} ${s.errors}`);
      BUCKETS_MS.forEach((b, i) => out.push(`${p}_request_duration_ms_bucket{${l},le="${b}"} ${s.buckets[i]}`));
      out.push(
        `${p}_request_duration_ms_bucket{${l},le="+Inf"} ${s.count}`,
        `${p}_request_duration_ms_sum{${l}} ${s.sum.toFixed(3)}`,
        `${p}_request_duration_ms_count{${l}} ${s.count}`,
      );
    }
    return `${out.join('\n')}\n`;
  }
}

/**
 * Process metrics every service exposes (memory, uptime), then every family the libraries
 * loaded in this process record into (bus, store, agent, rollouts: lib/telemetry's registry).
 */
export function processMetrics(prefix: string): () => string {
  const started = Date.now();
  return () => {
    const m = process.memoryUsage();
    return (
      [
        `# TYPE ${prefix}_process_resident_memory_bytes gauge`,
        `${prefix}_process_resident_memory_bytes ${m.rss}`,
        `# TYPE ${prefix}_process_heap_used_bytes gauge`,
        `${prefix}_process_heap_used_bytes ${m.heapUsed}`,
        `# TYPE ${prefix}_process_uptime_seconds gauge`,
        `${prefix}_process_uptime_seconds ${((Date.now() - started) / 1000).toFixed(1)}`,
        '',
      ].join('\n') + metrics().render()
    );
  };
}

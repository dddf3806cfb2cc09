/**
 * Tracing and metrics shared by every service. Tracing is the OpenTelemetry Node SDK, set up
 * from the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL,
 * OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…) and off unless an OTLP endpoint is set. Libraries
 * only use the API below: with tracing off every helper is a direct call, no span is made.
 * Metrics are one process-wide registry rendered as Prometheus text on each service's /metrics.
 */
import {
  context,
  propagation,
  trace,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';

export {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
};

const TRACER = 'nvcf';
const KEY = Symbol.for('nvcf.telemetry');
interface State {
  tracing: boolean;
  started?: Promise<Telemetry>;
  registry: Registry;
}
// one state per process, even when a package is loaded twice (sources in dev, dist in production)
const g = globalThis as unknown as Record<symbol, State | undefined>;
const state = (): State => (g[KEY] ??= { tracing: false, registry: new Registry() });

export const tracer = () => trace.getTracer(TRACER);
/** True once startTelemetry turned tracing on in this process. */
export const tracingOn = () => state().tracing;

/** Attribute names not (yet) in the semantic conventions, in our namespace. */
export const Attr = {
  tenant: 'nvcf.tenant.id',
  deliveryCount: 'nvcf.messaging.delivery_count',
  subscribers: 'nvcf.status.subscribers',
  instance: 'nvcf.instance.id',
  revision: 'nvcf.revision.id',
  cluster: 'nvcf.cluster.id',
  outcome: 'nvcf.outcome',
  requestId: 'nvcf.request.id',
} as const;

export interface Telemetry {
  tracing: boolean;
  /** flushes spans still buffered; call before the process exits */
  shutdown(): Promise<void>;
}

/** Whether the OTEL_* environment asks for traces: an OTLP endpoint, the SDK not disabled, the exporter not `none`. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  if (
    (env.OTEL_TRACES_EXPORTER ?? 'otlp')
      .split(',')
      .map((s) => s.trim())
      .every((e) => e === 'none' || e === '')
  )
    return false;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Whether our metrics should also be pushed over OTLP: OTEL_METRICS_EXPORTER=otlp and an OTLP endpoint. */
export function metricsRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  if (
    !(env.OTEL_METRICS_EXPORTER ?? '')
      .split(',')
      .map((e) => e.trim())
      .includes('otlp')
  )
    return false;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/**
 * Starts the OpenTelemetry Node SDK once per process when the environment asks for traces
 * (see tracingRequested); `serviceName` applies unless OTEL_SERVICE_NAME is set. Everything
 * else (protocol, sampler, headers, resource attributes, batch sizes) is the SDK's reading of
 * the standard variables. The SDK is loaded only when tracing is on.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  const s = state();
  return (s.started ??= (async (): Promise<Telemetry> => {
    const traces = tracingRequested(env);
    const otlpMetrics = metricsRequested(env);
    if (!traces && !otlpMetrics) return { tracing: false, shutdown: async () => {} };
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    // our metrics (the registry /metrics renders) go over OTLP too when OTEL_METRICS_EXPORTER=otlp;
    // the SDK's log exporter only when OTEL_LOGS_EXPORTER asks (our logs are on stderr)
    const metricReaders = otlpMetrics
      ? [await (await import('./otlp-metrics.js')).registryMetricReader(state().registry, env)]
      : [];
    const sdk = new NodeSDK({
      ...(env.OTEL_SERVICE_NAME ? {} : { serviceName }),
      instrumentations: [],
      metricReaders,
      ...(env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
      // traces off (OTEL_TRACES_EXPORTER=none or no endpoint) while metrics are exported
      ...(traces ? {} : { traceExporter: undefined, spanProcessors: [] }),
    });
    sdk.start();
    s.tracing = traces;
    let stopped: Promise<void> | undefined;
    return { tracing: traces, shutdown: () => (stopped ??= sdk.shutdown().catch(() => {})) };
  })());
}

/** Runs `fn` in a new span (active for everything `fn` awaits); a throw marks it failed. */
export async function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes; links?: Link[]; parent?: Context },
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!state().tracing) return fn(undefined);
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes, links: opts.links },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Starts a span without making it active; the caller ends it. Undefined when tracing is off. */
export function startSpan(
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes; links?: Link[]; parent?: Context } = {},
): { span: Span; ctx: Context } | undefined {
  if (!state().tracing) return undefined;
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes, links: opts.links },
    parent,
  );
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Records an error on a span: status ERROR with the error's type (never its data). */
export function failSpan(span: Span | undefined, err: unknown) {
  if (!span) return;
  const type = err instanceof Error ? err.name : typeof err;
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message.slice(0, 200) : undefined });
}

/** Sets attributes on the active span (the request's server span, the message's process span). */
export function annotate(attributes: Attributes) {
  if (!state().tracing) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** The W3C trace context (traceparent, tracestate) of `ctx` as headers; empty when nothing is traced. */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (state().tracing) propagation.inject(ctx, carrier);
  return carrier;
}

/** The context carried by headers (HTTP or a bus message); the root context when they carry none. */
export function contextFrom(headers: Record<string, string | string[] | undefined> | undefined): Context {
  if (!headers || !state().tracing) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The span context carried by headers, for a link (a delivery that is not part of the event's trace). */
export function linkFrom(headers: Record<string, string> | undefined): Link | undefined {
  const sc = trace.getSpanContext(contextFrom(headers));
  return sc && trace.isSpanContextValid(sc) ? { context: sc } : undefined;
}

/** The active trace and span ids, for log lines. */
export function activeIds(): { trace_id: string; span_id: string } | undefined {
  if (!state().tracing) return undefined;
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : undefined;
}

// ---- metrics --------------------------------------------------------------------------------

/** Latency buckets in seconds: 1 ms to 30 s (requests, store queries, applies). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets in seconds for long operations (rollouts): 1 s to 1 h. */
export const LONG_BUCKETS = [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

type Labels = Record<string, string>;
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (l: Labels) => {
  const keys = Object.keys(l);
  return keys.length ? `{${keys.map((k) => `${k}="${esc(l[k])}"`).join(',')}}` : '';
};
const keyOf = (l: Labels) =>
  JSON.stringify(
    Object.keys(l)
      .sort()
      .map((k) => [k, l[k]]),
  );

/** One family's current series, for exporters other than the Prometheus text (OTLP). */
export type Snapshot =
  | { name: string; help: string; type: 'counter' | 'gauge'; points: { labels: Labels; value: number }[] }
  | {
      name: string;
      help: string;
      type: 'histogram';
      buckets: number[];
      points: { labels: Labels; cumulative: number[]; sum: number; count: number }[];
    };

interface Family {
  render(): string;
  snapshot(): Snapshot;
}

/** Label sets beyond this many per family fold into one `other` series, so a client cannot grow them without end. */
const MAX_SERIES = 1000;

export class Counter<L extends string = string> implements Family {
  private readonly series = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
  ) {}
  inc(labels: Partial<Record<L, string>> = {}, by = 1) {
    const l = fold(this.series.size, labels as Labels, this.labelNames, this.series, keyOf);
    this.add(keyOf(l), l, by);
  }
  /** The series of `labels`, resolved once: for a caller that counts the same labels on every message. */
  with(labels: Partial<Record<L, string>> = {}): { inc(by?: number): void } {
    const l = fold(this.series.size, labels as Labels, this.labelNames, this.series, keyOf);
    const k = keyOf(l);
    return { inc: (by = 1) => this.add(k, l, by) };
  }
  private add(k: string, l: Labels, by: number) {
    const s = this.series.get(k);
    if (s) s.value += by;
    else this.series.set(k, { labels: l, value: by });
  }
  snapshot(): Snapshot {
    return {
      name: this.name,
      help: this.help,
      type: 'counter',
      points: [...this.series.values()].map((p) => ({ labels: p.labels, value: p.value })),
    };
  }
  render() {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const s of this.series.values()) out.push(`${this.name}${labelText(s.labels)} ${s.value}`);
    return out.join('\n');
  }
}

export class Histogram<L extends string = string> implements Family {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
    readonly buckets: number[] = LATENCY_BUCKETS,
  ) {}
  observe(labels: Partial<Record<L, string>>, value: number) {
    const l = fold(this.series.size, labels as Labels, this.labelNames, this.series, keyOf);
    this.record(keyOf(l), l, value);
  }
  /** Starts a timer; the returned function observes the seconds elapsed with the labels given then. */
  time(labels: Partial<Record<L, string>> = {}) {
    const t = performance.now();
    return (more: Partial<Record<L, string>> = {}) =>
      this.observe({ ...labels, ...more }, (performance.now() - t) / 1000);
  }
  /** The series of `labels`, resolved once: for a caller that observes the same labels on every message. */
  with(labels: Partial<Record<L, string>> = {}): { observe(value: number): void; time(): () => void } {
    const l = fold(this.series.size, labels as Labels, this.labelNames, this.series, keyOf);
    const k = keyOf(l);
    const observe = (value: number) => this.record(k, l, value);
    return {
      observe,
      time: () => {
        const t = performance.now();
        return () => observe((performance.now() - t) / 1000);
      },
    };
  }
  private record(k: string, l: Labels, value: number) {
    let s = this.series.get(k);
    if (!s) this.series.set(k, (s = { labels: l, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    s.count++;
    s.sum += value;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.counts[i]++;
  }
  snapshot(): Snapshot {
    return {
      name: this.name,
      help: this.help,
      type: 'histogram',
      buckets: this.buckets,
      points: [...this.series.values()].map((p) => ({
        labels: p.labels,
        cumulative: [...p.counts],
        sum: p.sum,
        count: p.count,
      })),
    };
  }
  render() {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      const base = Object.entries(s.labels).map(([k, v]) => `${k}="${esc(v)}"`);
      this.buckets.forEach((b, i) =>
        out.push(`${this.name}_bucket{${[...base, `le="${b}"`].join(',')}} ${s.counts[i]}`),
      );
      out.push(`${this.name}_bucket{${[...base, 'le="+Inf"'].join(',')}} ${s.count}`);
      out.push(
        `${this.name}_sum${labelText(s.labels)} ${s.sum}`,
        `${this.name}_count${labelText(s.labels)} ${s.count}`,
      );
    }
    return out.join('\n');
  }
}

/** A gauge read when /metrics is scraped: `collect` returns the current series. */
export class Gauge<L extends string = string> implements Family {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
    private readonly collect?: () => { labels: Partial<Record<L, string>>; value: number }[],
  ) {}
  set(labels: Partial<Record<L, string>>, value: number) {
    this.values.set(keyOf(labels as Labels), { labels: labels as Labels, value });
  }
  /** The series of `labels`, resolved once: for a caller that sets the same labels on every message. */
  with(labels: Partial<Record<L, string>>): { set(value: number): void } {
    const k = keyOf(labels as Labels);
    return {
      set: (value) => {
        const s = this.values.get(k);
        if (s) s.value = value;
        else this.values.set(k, { labels: labels as Labels, value });
      },
    };
  }
  inc(labels: Partial<Record<L, string>> = {}, by = 1) {
    const k = keyOf(labels as Labels);
    const s = this.values.get(k);
    if (s) s.value += by;
    else this.values.set(k, { labels: labels as Labels, value: by });
  }
  dec(labels: Partial<Record<L, string>> = {}, by = 1) {
    this.inc(labels, -by);
  }
  private rows(): { labels: Labels; value: number }[] {
    let rows: { labels: Labels; value: number }[] = [...this.values.values()];
    try {
      if (this.collect) rows = rows.concat(this.collect().map((r) => ({ labels: r.labels as Labels, value: r.value })));
    } catch {
      /* a collector must not break the scrape */
    }
    return rows;
  }
  snapshot(): Snapshot {
    return { name: this.name, help: this.help, type: 'gauge', points: this.rows() };
  }
  render() {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const r of this.rows()) out.push(`${this.name}${labelText(r.labels)} ${r.value}`);
    return out.join('\n');
  }
}

function fold(
  size: number,
  labels: Labels,
  names: readonly string[],
  series: Map<string, unknown>,
  key: (l: Labels) => string,
): Labels {
  const l: Labels = {};
  for (const n of names) l[n] = labels[n] ?? '';
  if (size >= MAX_SERIES && !series.has(key(l))) for (const n of names) l[n] = 'other';
  return l;
}

export class Registry {
  private readonly families = new Map<string, Family>();
  /** Registers a family once per name; a second call returns the first (modules loaded twice share it). */
  family<F extends Family & { name: string }>(f: F): F {
    const have = this.families.get(f.name);
    if (have) return have as F;
    this.families.set(f.name, f);
    return f;
  }
  snapshot(): Snapshot[] {
    return [...this.families.values()].map((f) => f.snapshot());
  }
  render(): string {
    const parts = [...this.families.values()].map((f) => f.render());
    return parts.length ? `${parts.join('\n')}\n` : '';
  }
}

/** The process-wide registry every library records into; each service's /metrics appends its rendering. */
export const metrics = () => state().registry;
export const counter = <L extends string>(name: string, help: string, labels: readonly L[] = []) =>
  metrics().family(new Counter<L>(name, help, labels));
export const histogram = <L extends string>(
  name: string,
  help: string,
  labels: readonly L[] = [],
  buckets?: number[],
) => metrics().family(new Histogram<L>(name, help, labels, buckets));
export const gauge = <L extends string>(
  name: string,
  help: string,
  labels: readonly L[] = [],
  collect?: () => { labels: Partial<Record<L, string>>; value: number }[],
) => metrics().family(new Gauge<L>(name, help, labels, collect));

// ---- redaction -------------------------------------------------------------------------------

/** Attributes no span of ours may carry: a GraphQL document can hold configuration values inline. */
export const REDACTED_ATTRIBUTES = [
  'graphql.document',
  'graphql.variables',
  'http.request.body',
  'db.query.text',
  'db.statement',
];

/**
 * A tracer that drops REDACTED_ATTRIBUTES from every span it starts, whether given at start or
 * set later: for instrumentation we do not write ourselves (the Hive gateway's plugin records
 * the operation document).
 */
export function redactingTracer(inner: Tracer = tracer(), drop: readonly string[] = REDACTED_ATTRIBUTES): Tracer {
  const deny = new Set(drop);
  const clean = (a?: Attributes) => {
    if (!a) return a;
    let out: Attributes | undefined;
    for (const k of Object.keys(a))
      if (deny.has(k)) {
        out ??= { ...a };
        delete out[k];
      }
    return out ?? a;
  };
  const wrap = (span: Span): Span => {
    const setAttribute = span.setAttribute.bind(span);
    const setAttributes = span.setAttributes.bind(span);
    span.setAttribute = (k, v) => (deny.has(k) ? span : setAttribute(k, v));
    span.setAttributes = (a) => setAttributes(clean(a) ?? {});
    return span;
  };
  const startSpan: Tracer['startSpan'] = (name, options, ctx) =>
    wrap(inner.startSpan(name, options && { ...options, attributes: clean(options.attributes) }, ctx));
  const startActiveSpan = ((name: string, ...rest: unknown[]) => {
    const fn = rest.pop() as (span: Span) => unknown;
    const [options, ctx] = rest as [SpanOptions | undefined, Context | undefined];
    const parent = ctx ?? context.active();
    const span = startSpan(name, options, parent);
    return context.with(trace.setSpan(parent, span), fn, undefined, span);
  }) as Tracer['startActiveSpan'];
  return { startSpan, startActiveSpan };
}

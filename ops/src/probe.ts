import { renderTable } from './cli.js';
import { startWatch } from './probe-watch.js';

export interface ProbeOptions {
  /** the GraphQL endpoint (a gateway, or a load balancer in front of several) */
  url: string;
  /** default: `url` with ws:// or wss:// */
  wsUrl?: string;
  token: string;
  /** one query this often, whether or not the previous one has answered (default 50) */
  intervalMs?: number;
  /** a query not answered within this is a failure (default 2000) */
  timeoutMs?: number;
  /** when set, a status subscription on this function runs too, resumed on every disconnect */
  functionId?: string;
  /** default `{ clusters { id } }` */
  query?: string;
  /** a failed query is retried once at once, so a run shows whether clients would have recovered (default true) */
  retry?: boolean;
  onFailure?: (f: ProbeFailure) => void;
  /** disconnects, reconnects: not failures, but worth a line */
  onNotice?: (at: Date, message: string) => void;
}

export interface ProbeFailure {
  at: string;
  /** query, query retry, subscription, gap, duplicate */
  what: string;
  /** the error's extensions.code, HTTP_<status>, TIMEOUT, a socket error code... */
  code: string;
  message: string;
}

export interface ProbeSummary {
  startedAt: string;
  durationMs: number;
  requests: number;
  failed: number;
  /** failed queries whose retry answered */
  recovered: number;
  /** of the queries that answered; null before the first */
  latencyMs: { p50: number | null; p99: number | null; max: number | null };
  subscription: boolean;
  events: number;
  reconnects: number;
  reconnectAttempts: number;
  gaps: number;
  duplicates: number;
  subscriptionErrors: number;
  /** the first 1000 */
  failures: ProbeFailure[];
}

export interface Probe {
  /** stops sending, waits for the queries in flight, closes the subscription */
  stop(): Promise<ProbeSummary>;
  summary(): ProbeSummary;
}

const MAX_FAILURES_KEPT = 1000;
const DEFAULT_QUERY = '{ clusters { id } }';

type Outcome = { ok: true; ms: number } | { ok: false; code: string; message: string };

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
const round = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

interface GraphQLBody {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}
/** A GraphQL response body, by its shape: an object whose errors, when present, are a list. */
const isGraphQLBody = (v: unknown): v is GraphQLBody =>
  typeof v === 'object' && v !== null && (!('errors' in v) || Array.isArray(v.errors));

async function query(url: string, token: string, body: string, timeoutMs: number): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: GraphQLBody | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isGraphQLBody(parsed)) json = parsed;
    } catch {
      /* reported below */
    }
    const err = json?.errors?.[0];
    if (err) return { ok: false, code: err.extensions?.code ?? `HTTP_${res.status}`, message: err.message };
    if (res.status !== 200 || !json?.data)
      return { ok: false, code: `HTTP_${res.status}`, message: text.slice(0, 200) || res.statusText };
    return { ok: true, ms: performance.now() - t0 };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError') return { ok: false, code: 'TIMEOUT', message: `no answer within ${timeoutMs} ms` };
    return { ok: false, code: err.cause?.code ?? err.name, message: err.cause?.message ?? err.message };
  }
}

/**
 * A continuous probe: a query every `intervalMs` and, given a function, a status
 * subscription that resumes from its cursor on every disconnect. Counts what a client of a
 * rolling upgrade would have suffered: failed requests, gaps and duplicates in the stream.
 */
export function startProbe(opts: ProbeOptions): Probe {
  const intervalMs = opts.intervalMs ?? 50;
  const timeoutMs = opts.timeoutMs ?? 2000;
  const body = JSON.stringify({ query: opts.query ?? DEFAULT_QUERY });
  const started = Date.now();
  const latencies: number[] = [];
  const failures: ProbeFailure[] = [];
  const inFlight = new Set<Promise<void>>();
  let requests = 0;
  let failed = 0;
  let recovered = 0;
  let stopped: Promise<ProbeSummary> | undefined;
  let endedAt: number | undefined;

  const failure = (what: string, code: string, message: string) => {
    const f = { at: new Date().toISOString(), what, code, message };
    if (failures.length < MAX_FAILURES_KEPT) failures.push(f);
    opts.onFailure?.(f);
  };

  const watch = opts.functionId
    ? startWatch({
        wsUrl: opts.wsUrl ?? opts.url.replace(/^http/, 'ws'),
        token: opts.token,
        functionId: opts.functionId,
        failure,
        notice: (m) => opts.onNotice?.(new Date(), m),
      })
    : undefined;

  const once = async () => {
    requests++;
    const r = await query(opts.url, opts.token, body, timeoutMs);
    if (r.ok) return void latencies.push(r.ms);
    failed++;
    failure('query', r.code, r.message);
    if (opts.retry === false || stopped) return;
    const again = await query(opts.url, opts.token, body, timeoutMs);
    if (again.ok) {
      recovered++;
      latencies.push(again.ms);
    } else failure('query retry', again.code, again.message);
  };

  // fixed rate from the start: a slow answer must not slow the probe down and hide an outage
  let n = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    const p = once().finally(() => inFlight.delete(p));
    inFlight.add(p);
    n++;
    timer = setTimeout(tick, Math.max(0, started + n * intervalMs - Date.now()));
  };
  tick();

  const summary = (): ProbeSummary => {
    const sorted = [...latencies].sort((a, b) => a - b);
    const w = watch?.counters;
    return {
      startedAt: new Date(started).toISOString(),
      durationMs: (endedAt ?? Date.now()) - started,
      requests,
      failed,
      recovered,
      latencyMs: {
        p50: round(percentile(sorted, 50)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted.at(-1) ?? null),
      },
      subscription: watch !== undefined,
      events: w?.events ?? 0,
      reconnects: w?.reconnects ?? 0,
      reconnectAttempts: w?.reconnectAttempts ?? 0,
      gaps: w?.gaps ?? 0,
      duplicates: w?.duplicates ?? 0,
      subscriptionErrors: w?.errors ?? 0,
      failures: [...failures],
    };
  };

  return {
    summary,
    stop() {
      stopped ??= (async () => {
        clearTimeout(timer);
        await Promise.all([...inFlight]);
        await watch?.stop();
        endedAt = Date.now();
        return summary();
      })();
      return stopped;
    },
  };
}

/** The probe's verdict: no failed request, no subscription error, no gap, no duplicate. */
export const probePassed = (s: ProbeSummary) =>
  s.failed === 0 && s.gaps === 0 && s.duplicates === 0 && s.subscriptionErrors === 0;

export const formatProbeFailure = (f: ProbeFailure) => `${f.at} FAIL ${f.what} ${f.code}: ${f.message}`;

export function formatProbeSummary(s: ProbeSummary): string {
  const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);
  const sub = (v: number) => (s.subscription ? String(v) : '- (no --function)');
  const rows: [string, string][] = [
    ['duration', `${(s.durationMs / 1000).toFixed(1)} s`],
    ['requests', String(s.requests)],
    ['failed', `${s.failed}${s.failed ? ` (${s.recovered} answered on retry)` : ''}`],
    ['p50', ms(s.latencyMs.p50)],
    ['p99', ms(s.latencyMs.p99)],
    ['max', ms(s.latencyMs.max)],
    ['events seen', sub(s.events)],
    ['reconnects', s.subscription ? `${s.reconnects} (${s.reconnectAttempts} attempts)` : sub(0)],
    ['gaps', sub(s.gaps)],
    ['duplicates', sub(s.duplicates)],
    ['subscription errors', sub(s.subscriptionErrors)],
    ['result', probePassed(s) ? 'PASS' : 'FAIL'],
  ];
  return renderTable(['probe', 'value'], rows);
}

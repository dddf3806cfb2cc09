// The fleet benchmark's view of the control plane's own /metrics (Prometheus text): how fast each
// status reader applied the rollout's events, how far it trailed the stream, and how many
// lightweight transactions the stores ran meanwhile.
import { durableName, Streams } from '@nvcf/contracts';
import { statusConsumers } from '@nvcf/local';
import { READERS, type PerReader } from './readers.js';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Page {
  samples: Sample[];
  /** families with a `# TYPE` line: declared, with or without series yet */
  declared: Set<string>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** A Prometheus text page: its samples (unparsable lines skipped) and the families it declares. */
export function parseProm(text: string): Page {
  const page: Page = { samples: [], declared: new Set() };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const type = /^#\s*TYPE\s+(\S+)/.exec(line);
    if (type) page.declared.add(type[1]);
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k] = unescape(v);
    const value = Number(m[3]);
    if (!Number.isNaN(value)) page.samples.push({ name: m[1], labels, value });
  }
  return page;
}

const matching = (page: Page, name: string, want: Record<string, string>) =>
  page.samples.filter((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v));

/** A counter's sum over the series whose labels include `want`: 0 when declared without them, null when not exposed at all. */
export function counterSum(page: Page, name: string, want: Record<string, string> = {}): number | null {
  const found = matching(page, name, want);
  if (!found.length) return page.declared.has(name) ? 0 : null;
  return found.reduce((n, s) => n + s.value, 0);
}

/** A gauge's largest value over the series whose labels include `want`; null when it has none. */
export function gaugeMax(page: Page, name: string, want: Record<string, string> = {}): number | null {
  const found = matching(page, name, want);
  return found.length ? Math.max(...found.map((s) => s.value)) : null;
}

/** Each status reader's durable on the status stream, as the control plane with this suffix names it. */
export function readerDurables(suffix: string): PerReader<string> {
  const c = statusConsumers(suffix);
  const d = (consumer: string) => durableName(Streams.status.name, consumer);
  return { nvcf: d(c.nvcf), icms: d(c.icms), 'nvca-status': d(c.status) };
}

const CONSUMED = 'nvcf_bus_consumed_total';
const LAG = 'nvcf_bus_consumer_lag_seconds';
const LWT = 'nvcf_store_lwt_total';
const SAMPLE_MS = 250;

export interface ReaderSnapshot {
  at: number;
  acked: PerReader<number>;
  lwt: number | null;
}

export interface ReaderWatch {
  /** every reader's acks since the watch began reached `events`: when each got there (sample time), and the end snapshot */
  until(events: number, timeoutMs: number): Promise<{ doneAt: PerReader<number | null>; end: ReaderSnapshot }>;
  base: ReaderSnapshot;
  /** the largest lag each reader showed once it had applied an event of the window; null: gauge not exposed */
  lagMaxMs(): PerReader<number | null>;
  /** the largest time between the first and the last reader reaching the same count of events applied (readerWindowMs) */
  windowMaxMs(): number | null;
  stop(): Promise<void>;
}

/**
 * Scrapes `/metrics` of every process of the control plane (`metricsUrls`, read as one page: each
 * reader's series live in one process, LWTs are summed over all) every SAMPLE_MS from now on. The lag gauge keeps the age of the last
 * message a reader applied, so before a reader applies anything of the window it still shows the
 * deploy's lag: a reader's lag counts only from the sample where its acks have moved.
 */
export async function watchReaders(metricsUrls: string[], durables: PerReader<string>): Promise<ReaderWatch> {
  const scrape = async (): Promise<Page> =>
    parseProm((await Promise.all(metricsUrls.map(async (u) => (await fetch(`${u}/metrics`)).text()))).join('\n'));
  const snapshot = (at: number, s: Page): ReaderSnapshot => ({
    at,
    acked: Object.fromEntries(
      READERS.map((r) => [
        r,
        counterSum(s, CONSUMED, { stream: Streams.status.name, durable: durables[r], outcome: 'ack' }) ?? 0,
      ]),
    ) as PerReader<number>,
    lwt: counterSum(s, LWT),
  });
  const base = snapshot(Date.now(), await scrape());
  let last = base;
  const history: ReaderSnapshot[] = [base];
  const lagMax: PerReader<number | null> = { nvcf: null, icms: null, 'nvca-status': null };
  let failed: unknown;
  let stopped = false;
  const tick = async () => {
    try {
      const s = await scrape();
      const snap = snapshot(Date.now(), s);
      for (const r of READERS) {
        if (snap.acked[r] <= base.acked[r]) continue;
        const lag = gaugeMax(s, LAG, { stream: Streams.status.name, durable: durables[r] });
        if (lag !== null) lagMax[r] = Math.max(lagMax[r] ?? 0, Math.round(lag * 1000));
      }
      last = snap;
      history.push(snap);
    } catch (err) {
      failed ??= err;
    }
  };
  // one scrape at a time: a slow /metrics under load stretches the interval rather than piling up
  const loop = (async () => {
    while (!stopped) {
      const next = Date.now() + SAMPLE_MS;
      await tick();
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    }
  })();
  return {
    base,
    lagMaxMs: () => ({ ...lagMax }),
    windowMaxMs: () => readerWindowMs(history),
    async until(events, timeoutMs) {
      const doneAt: PerReader<number | null> = { nvcf: null, icms: null, 'nvca-status': null };
      const end = Date.now() + timeoutMs;
      let seen: ReaderSnapshot | undefined;
      while (Date.now() < end) {
        if (failed) throw new Error('fleet: scraping the control plane metrics failed', { cause: failed });
        if (last !== seen) {
          seen = last;
          for (const r of READERS)
            if (doneAt[r] === null && seen.acked[r] - base.acked[r] >= events) doneAt[r] = seen.at;
          if (READERS.every((r) => doneAt[r] !== null)) break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      return { doneAt, end: last };
    },
    stop() {
      stopped = true;
      return loop;
    },
  };
}

/**
 * How long the three readers disagree: for every count k of events applied since the first snapshot,
 * the time between the first reader's snapshot showing k and the last one's; the largest such time
 * (to the snapshots' interval). Counts reached by every reader only; null when none moved.
 */
export function readerWindowMs(history: ReaderSnapshot[]): number | null {
  if (history.length < 2) return null;
  const [first] = history;
  const applied = (s: ReaderSnapshot, r: (typeof READERS)[number]) => s.acked[r] - first.acked[r];
  const end = history[history.length - 1];
  const top = Math.min(...READERS.map((r) => applied(end, r)));
  if (top <= 0) return null;
  // the first snapshot where a reader shows at least k: counts only grow, so a binary search
  const reached = (r: (typeof READERS)[number], k: number) => {
    let lo = 0;
    let hi = history.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (applied(history[mid], r) >= k) hi = mid;
      else lo = mid + 1;
    }
    return history[lo].at;
  };
  // the window changes only just past a count some snapshot showed
  const levels = new Set<number>([1]);
  for (const s of history) for (const r of READERS) if (applied(s, r) < top) levels.add(applied(s, r) + 1);
  let widest = 0;
  for (const k of levels) {
    const ats = READERS.map((r) => reached(r, k));
    widest = Math.max(widest, Math.max(...ats) - Math.min(...ats));
  }
  return widest;
}

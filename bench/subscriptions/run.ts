// Status subscriptions on each path, one after the other, under the same load: N graphql-ws
// subscriptions of one tenant on one function, events published to NATS at a fixed rate.
// A session keeps one path's process and subscriptions open across steps, so a sweep raises the
// rate on the same subscriptions instead of paying the connect and probe phase per step.
import { readServicesEnv } from '@nvcf/test/services';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createNatsBus, type Bus } from '@nvcf/bus';
import { subjects } from '@nvcf/contracts';
import { startTarget, type Path } from './targets.js';
import { DeliveryTally } from './tally.js';
import { sessionFigures, summarizeStep, type Repeat, type StepSummary } from './steps.js';
import { openMixSession } from './mix/session.js';
import { activeAgain } from './events.js';
import { combineResults, type Repeated } from './repeats.js';

export type { Path } from './targets.js';
export { allPaths, sweepPaths } from './targets.js';

export interface Result {
  path: Path;
  subscribers: number;
  ready: number;
  events: number;
  /** distinct deliveries: an event counts once per subscriber */
  delivered: number;
  /** counted per subscriber: events published but never received */
  lost: number;
  /** counted per subscriber: an event received again */
  duplicates: number;
  /** the realistic mix (bench/subscriptions/mix/): deliveries without their remote fields, resumes, replayed events */
  incomplete?: number;
  resumes?: number;
  replayed?: number;
  events_per_s: number;
  p50_ms: number;
  p99_ms: number;
  rss_mb: number;
  rss_per_1k_subs_mb: number;
}

export interface SubscriptionsOptions {
  subs: number;
  rate: number;
  seconds: number;
  paths: Path[];
  /** select an Instance field another subgraph owns (cluster name), fetched through the supergraph per event */
  remote?: boolean;
  /** runs per path, interleaved across the paths (default 1) */
  repeats?: number;
  /** default: NATS_URL from .services/env (written by npm run services:up) */
  natsUrl?: string;
  /** the realistic mix's stores; default: CASSANDRA_* from .services/env */
  cassandra?: Cassandra;
}

export interface Cassandra {
  contactPoints: string[];
  localDataCenter: string;
}

/** the gateway's limit of status subscriptions per connection */
const SUBS_PER_SOCKET = 100;
const TENANT = 'nca-a';
// the cluster's key comes with the event; `remote` adds a field only icms has (one supergraph fetch per event)
const query = (remote?: boolean) =>
  `subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state at message instance { id cluster { id${remote ? ' name' : ''} } } } }`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// a timed event's message is `<step>:<event number>:<publish time>`: a late delivery of an earlier
// step never counts in a later one, and each subscriber's deliveries are checked event by event
const TIMED = /^(\d+):(\d+):(\d+)$/;

/**
 * Each path in turn, each run on a fresh process and fresh subscriptions; with `repeats`, the paths
 * take turns run by run (ours, peer, ceiling, ours, …), so a slow minute of a shared machine falls on
 * all of them, and each path's runs become one result (their medians, spread and summed losses).
 */
export async function runSubscriptions(opts: SubscriptionsOptions): Promise<(Result & Repeated)[]> {
  const natsUrl = natsUrlOf(opts.natsUrl);
  const runs = new Map<Path, Result[]>(opts.paths.map((p) => [p, []]));
  for (let r = 0; r < Math.max(1, opts.repeats ?? 1); r++)
    for (const path of opts.paths) {
      const s = await openSession(path, opts.subs, natsUrl, opts.remote, opts.cassandra);
      try {
        // a run waits up to 30 s for stragglers: its `lost` is final
        const x = await s.step(opts.rate, opts.seconds, 30_000);
        runs.get(path)!.push(x);
        console.error(
          `[bench] ${path} ${opts.subs} subs × ${opts.rate}/s, run ${r + 1}: ${x.events_per_s}/s delivered, p99 ${x.p99_ms} ms, lost ${x.lost}`,
        );
      } finally {
        await s.close();
      }
    }
  return opts.paths.map((p) => combineResults(runs.get(p)!));
}

const natsUrlOf = (given?: string) => {
  const url = given ?? readServicesEnv().NATS_URL;
  if (!url) throw new Error('no NATS_URL: run npm run services:up first');
  return url;
};

const cassandraOf = (given?: Cassandra): Cassandra => {
  if (given) return given;
  const env = readServicesEnv();
  if (!env.CASSANDRA_CONTACT_POINTS) throw new Error('no CASSANDRA_CONTACT_POINTS: run npm run services:up first');
  return {
    contactPoints: env.CASSANDRA_CONTACT_POINTS.split(','),
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
  };
};

export interface SweepSeries {
  subs: number;
  rates: number[];
}
/** One rate on one path: its repeats, and their median and spread. */
export interface SweepStep extends StepSummary {
  rate: number;
  repeats: Repeat[];
}
export interface SweepCurve {
  path: Path;
  subs: number;
  steps: SweepStep[];
  /** why the series stopped before its last rate, if it did */
  stopped?: string;
}
/** every sweep session's unmeasured first seconds, at its series' first rate (the same for every path) */
const WARMUP_S = 3;

export interface SweepOptions {
  series: SweepSeries[];
  seconds: number;
  paths: Path[];
  /** a step whose median p99 passes this, or that loses anything, ends its series */
  p99BoundMs: number;
  /** runs of each step per path, interleaved across the paths (at least 1) */
  repeats: number;
  natsUrl?: string;
  cassandra?: Cassandra;
}

/**
 * Paths whose process does more than the fan-out while idle: npm start's status readers (and
 * the mix's icms and nvca-status) write every event of the stream to Cassandra, including the
 * events published for another path's step. They run their series alone, never beside another path's session.
 */
const ALONE: Path[] = ['gateway', 'forward', 'mix'];

/** The groups of paths whose sessions are open together, and whose steps are interleaved. */
export function sessionGroups(paths: Path[]): Path[][] {
  const together = paths.filter((p) => !ALONE.includes(p));
  return [...paths.filter((p) => ALONE.includes(p)).map((p) => [p]), ...(together.length ? [together] : [])];
}

/**
 * Raises the offered rate step by step until a path's step is not sustained; later steps of that
 * path's series are not run, since a saturated path only falls further behind. The paths of a
 * group keep their sessions open side by side and take turns at each step, repeat by repeat
 * (ours, ceiling, ours, ceiling, …), so a slow minute on a shared machine hits both, not one.
 */
export async function runSweep(o: SweepOptions): Promise<SweepCurve[]> {
  const natsUrl = natsUrlOf(o.natsUrl);
  const curves: SweepCurve[] = [];
  for (const series of o.series)
    for (const group of sessionGroups(o.paths)) curves.push(...(await sweepGroup(group, series, o, natsUrl)));
  return curves;
}

async function sweepGroup(paths: Path[], series: SweepSeries, o: SweepOptions, natsUrl: string) {
  const curves: SweepCurve[] = paths.map((path) => ({ path, subs: series.subs, steps: [] }));
  const open = new Map<Path, Session>();
  const stop = async (c: SweepCurve, why: string) => {
    c.stopped = why;
    await open.get(c.path)?.close();
    open.delete(c.path);
  };
  try {
    for (const c of curves)
      try {
        open.set(c.path, await openSession(c.path, series.subs, natsUrl, false, o.cassandra));
      } catch (err) {
        c.stopped = `could not start: ${describe(err)}`;
        console.error(`[bench] sweep ${c.path} ${series.subs}: ${c.stopped}`);
      }
    // unmeasured: JIT, connection buffers and the stores' first writes settle before the first step's clock starts
    for (const s of open.values()) await s.step(series.rates[0], WARMUP_S, 1000);
    for (const rate of series.rates) {
      const running = curves.filter((c) => open.has(c.path));
      if (!running.length) break;
      const offered = series.subs * rate;
      const repeats = new Map<Path, Repeat[]>(running.map((c) => [c.path, []]));
      for (let r = 0; r < Math.max(1, o.repeats); r++)
        for (const c of running) {
          // stragglers get 5 s: a delivery later than that is past any bound worth sustaining
          const x = await open.get(c.path)!.step(rate, o.seconds, 5000);
          repeats.get(c.path)!.push(repeatOf(x, offered));
          console.error(
            `[bench] sweep ${c.path} ${series.subs} subs × ${rate}/s, repeat ${r + 1}: ${x.events_per_s}/s delivered, p50 ${x.p50_ms} ms, p99 ${x.p99_ms} ms, lost ${x.lost}, duplicates ${x.duplicates}${x.incomplete !== undefined ? `, incomplete ${x.incomplete}, resumes ${x.resumes} (${x.replayed} replayed)` : ''}, RSS ${x.rss_mb} MB`,
          );
          await sleep(2000); // let the previous run's garbage and sockets settle
        }
      for (const c of running) {
        const reps = repeats.get(c.path)!;
        const step: SweepStep = { rate, ...summarizeStep(offered, reps, o.p99BoundMs), repeats: reps };
        c.steps.push(step);
        console.error(
          `[bench] sweep ${c.path} ${series.subs} subs × ${rate}/s: median ${step.median.delivered_per_s}/s, p99 ${step.median.p99_ms} ms${step.sustained ? '' : ` — not sustained (${step.reason})`}`,
        );
        if (!step.sustained) await stop(c, `${series.subs} × ${rate}/s: ${step.reason}`);
      }
    }
  } finally {
    for (const s of open.values()) await s.close();
  }
  return curves;
}

const repeatOf = (r: Result, offered: number): Repeat => ({
  offered_per_s: offered,
  delivered_per_s: r.events_per_s,
  p50_ms: r.p50_ms,
  p99_ms: r.p99_ms,
  lost: r.lost,
  duplicates: r.duplicates,
  rss_mb: r.rss_mb,
  not_ready: r.subscribers - r.ready,
  ...(r.incomplete !== undefined ? { incomplete: r.incomplete, resumes: r.resumes, replayed: r.replayed } : {}),
});

/** The highest offered deliveries/s a path sustained in any series (null: none). */
export function maxSustained(curves: SweepCurve[], path: Path): number | null {
  const ok = curves.filter((c) => c.path === path).flatMap((c) => c.steps.filter((s) => s.sustained));
  return ok.length ? Math.max(...ok.map((s) => s.offered_per_s)) : null;
}

interface Session {
  step(rate: number, seconds: number, drainMs: number): Promise<Result>;
  close(): Promise<void>;
}

async function openSession(
  path: Path,
  subs: number,
  natsUrl: string,
  remote?: boolean,
  cassandra?: Cassandra,
): Promise<Session> {
  if (path === 'mix') return openMixSession(subs, natsUrl, cassandraOf(cassandra));
  const target = await startTarget(path, natsUrl);
  let bus: Bus | undefined;
  const clients: Client[] = [];
  const close = async () => {
    // graphql-ws's dispose() returns void or a promise, depending on the socket's state
    await Promise.all(clients.map(async (c) => c.dispose()));
    await bus?.dispose();
    await target.stop();
  };
  try {
    bus = await createNatsBus({ servers: natsUrl, name: 'bench-publisher' });
    const publisher = bus;
    const rssBase = target.rssMb();
    const probed = new Uint8Array(subs),
      failed = new Uint8Array(subs);
    // only subscriptions ready when the timed phase starts are counted, so `lost` stays honest
    let counted = new Uint8Array(subs);
    let stepNo = 0;
    let latencies: number[] = [];
    let tally = new DeliveryTally(subs, 0);
    let probeHits = 0,
      lastAt = 0,
      firstError: unknown;
    for (let c = 0; c < Math.ceil(subs / SUBS_PER_SOCKET); c++) {
      clients.push(
        createClient({
          url: target.wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: 'Bearer dev-token-a' },
          retryAttempts: 0,
        }),
      );
    }
    for (let i = 0; i < subs; i++) {
      clients[Math.floor(i / SUBS_PER_SOCKET)].subscribe<{
        instanceStatusChanged?: { message?: unknown };
      }>(
        { query: target.query?.(target.functionId) ?? query(remote), variables: { f: target.functionId } },
        {
          next: (m) => {
            const e = m.data?.instanceStatusChanged;
            if (!e) return;
            if (e.message === 'probe') {
              probed[i] = 1;
              probeHits++;
              return;
            }
            // the agents' own transitions carry no publish time
            if (!counted[i] || typeof e.message !== 'string') return;
            const t = TIMED.exec(e.message);
            if (!t || Number(t[1]) !== stepNo || !tally.record(i, Number(t[2]))) return;
            const now = Date.now();
            lastAt = now;
            latencies.push(now - Number(t[3]));
          },
          error: (err) => {
            failed[i] = 1;
            firstError ??= err;
          },
          complete: () => {},
        },
      );
    }
    let clock = Date.now() * 1000;
    const publish = (n: number, message: string) => {
      const instanceId = target.instanceIds[n % target.instanceIds.length];
      const e = activeAgain({
        ncaId: TENANT,
        functionId: target.functionId,
        versionId: target.versionId,
        instanceId,
        clock: ++clock,
        message,
      });
      return publisher.publish(subjects.status(TENANT, instanceId), e);
    };

    await probeUntilReady(
      subs,
      probed,
      failed,
      () => probeHits,
      (n) => publish(n, 'probe'),
    );
    counted = probed.slice();
    const ready = count(counted);
    if (ready < subs)
      console.error(
        `[bench] ${path}: ${ready}/${subs} subscriptions ready, ${count(failed)} failed${firstError ? `; first error: ${describe(firstError)}` : ''}`,
      );

    return {
      close,
      async step(rate, seconds, drainMs) {
        stepNo++;
        latencies = [];
        lastAt = 0;
        const step = stepNo,
          total = rate * seconds;
        tally = new DeliveryTally(subs, total);
        const published = new Uint8Array(total);
        const { events, t0 } = await publishPaced(
          total,
          rate,
          (n) => publish(n, `${step}:${n}:${Date.now()}`),
          path,
          published,
        );
        // subscriptions that failed during this step or an earlier one no longer count as ready
        const liveNow = counted.map((x, i) => x & (failed[i] ^ 1));
        const live = count(liveNow);
        const expected = events * live;
        for (const until = Date.now() + drainMs; Date.now() < until && tally.delivered < expected;) await sleep(100);
        const { delivered, lost, duplicates } = tally.tally(
          (i) => liveNow[i] === 1,
          (n) => published[n] === 1,
        );
        const rss = target.rssMb();
        return {
          path,
          subscribers: subs,
          ready: live,
          events,
          delivered,
          lost,
          duplicates,
          ...sessionFigures({ delivered: delivered, t0, lastAt, seconds, latencies, rss, rssBase, subs }),
        };
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A subscription is ready once a probe event reached it. Each probe waits until the previous
 * one reached every subscription already ready (or 5 s), so probing paces itself instead of
 * flooding a slow path while it is still accepting subscriptions.
 */
async function probeUntilReady(
  subs: number,
  probed: Uint8Array,
  failed: Uint8Array,
  hits: () => number,
  probe: (n: number) => Promise<unknown>,
) {
  const deadline = Date.now() + 60_000 + subs * 6; // 10k subscriptions: 2 minutes
  let before = -1,
    progressAt = Date.now();
  for (let n = 0; Date.now() < deadline; n++) {
    const ready = count(probed);
    if (probed.every((x, i) => x || failed[i])) return;
    if (ready !== before) {
      before = ready;
      progressAt = Date.now();
    }
    // nothing new for 15 s: what is left will not become ready (reported, not waited for)
    if (ready > 0 && Date.now() - progressAt > 15_000) return;
    const h = hits();
    await probe(n);
    const until = Date.now() + 5000;
    await sleep(200);
    while (Date.now() < until && hits() - h < ready) await sleep(50);
  }
}

/** Publishes `total` events at `rate`/s; an event counts (and is marked in `acked`) once NATS acknowledged it. */
async function publishPaced(
  total: number,
  rate: number,
  publish: (n: number) => Promise<unknown>,
  path: Path,
  acked: Uint8Array,
) {
  let events = 0;
  const t0 = Date.now();
  for (let n = 0; n < total; n++) {
    try {
      await publish(n);
      acked[n] = 1;
      events++;
    } catch (err) {
      console.error(`[bench] ${path}: publish ${n} failed: ${describe(err)}`);
    }
    const due = t0 + ((n + 1) * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  return { events, t0 };
}

const count = (xs: Uint8Array) => xs.reduce((s, x) => s + x, 0);
const describe = (err: unknown) => (err instanceof Error ? err.message : JSON.stringify(err));

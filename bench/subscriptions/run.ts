// Status subscriptions on each path, one after the other, under the same load: N graphql-ws
// subscriptions of one tenant on one function, events published to NATS at a fixed rate.
import { readServicesEnv } from '../../test/services/index.js';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createNatsBus, type Bus } from '@nvcf/bus';
import { subjects, type StatusEvent } from '@nvcf/contracts';
import { percentile } from '../lib.js';
import { startTarget, type Path, type Target } from './targets.js';

export type { Path } from './targets.js';
export { allPaths } from './targets.js';

export interface Result {
  path: Path;
  subscribers: number;
  ready: number;
  events: number;
  delivered: number;
  lost: number;
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
  /** default: NATS_URL from .services/env (written by npm run services:up) */
  natsUrl?: string;
}

/** the gateway's limit of status subscriptions per connection */
const SUBS_PER_SOCKET = 100;
const TENANT = 'nca-a';
// the cluster's key comes with the event; `remote` adds a field only icms has (one supergraph fetch per event)
const query = (remote?: boolean) =>
  `subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state at message instance { id cluster { id${remote ? ' name' : ''} } } } }`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSubscriptions(opts: SubscriptionsOptions): Promise<Result[]> {
  const natsUrl = opts.natsUrl ?? readServicesEnv().NATS_URL;
  if (!natsUrl) throw new Error('no NATS_URL: run npm run services:up first');
  const results: Result[] = [];
  for (const path of opts.paths) results.push(await measure(path, opts, natsUrl));
  return results;
}

async function measure(path: Path, o: SubscriptionsOptions, natsUrl: string): Promise<Result> {
  const target = await startTarget(path, natsUrl);
  const bus = await createNatsBus({ servers: natsUrl, name: 'bench-publisher' });
  const clients: Client[] = [];
  try {
    const rssBase = target.rssMb();
    const probed = new Uint8Array(o.subs),
      failed = new Uint8Array(o.subs);
    // only subscriptions ready when the timed phase starts are counted, so `lost` stays honest
    let counted = new Uint8Array(o.subs);
    const latencies: number[] = [];
    let delivered = 0,
      probeHits = 0,
      lastAt = 0,
      firstError: unknown;
    for (let c = 0; c < Math.ceil(o.subs / SUBS_PER_SOCKET); c++) {
      clients.push(
        createClient({
          url: target.wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: 'Bearer dev-token-a' },
          retryAttempts: 0,
        }),
      );
    }
    for (let i = 0; i < o.subs; i++) {
      clients[Math.floor(i / SUBS_PER_SOCKET)].subscribe<any>(
        { query: query(o.remote), variables: { f: target.functionId } },
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
            if (!counted[i] || typeof e.message !== 'string' || !/^\d+$/.test(e.message)) return;
            const now = Date.now();
            delivered++;
            lastAt = now;
            latencies.push(now - Number(e.message));
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
      const e: StatusEvent = {
        ncaId: TENANT,
        functionId: target.functionId,
        versionId: target.versionId,
        gpuSpecificationId: 's',
        clusterId: 'cluster-a',
        instanceId,
        state: 'ACTIVE',
        previousState: 'ACTIVE',
        revisionId: null,
        at: new Date().toISOString(),
        clock: ++clock,
        message,
      };
      return bus.publish(subjects.status(TENANT, instanceId), e);
    };

    await probeUntilReady(
      o.subs,
      probed,
      failed,
      () => probeHits,
      (n) => publish(n, 'probe'),
    );
    counted = probed.slice();
    const ready = count(counted);
    if (ready < o.subs)
      console.error(
        `[bench] ${path}: ${ready}/${o.subs} subscriptions ready, ${count(failed)} failed${firstError ? `; first error: ${describe(firstError)}` : ''}`,
      );

    const { events, t0 } = await publishPaced(o.rate * o.seconds, o.rate, (n) => publish(n, String(Date.now())), path);
    const expected = events * ready;
    for (let t = 0; t < 300 && delivered < expected; t++) await sleep(100);
    const rss = target.rssMb();
    return {
      path,
      subscribers: o.subs,
      ready,
      events,
      delivered,
      lost: expected - delivered,
      events_per_s: delivered ? Math.round(delivered / ((lastAt - t0) / 1000)) : 0,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      rss_mb: Math.round(rss),
      rss_per_1k_subs_mb: Math.round(((rss - rssBase) / o.subs) * 1000 * 10) / 10,
    };
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    await bus.dispose();
    await target.stop();
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

/** Publishes `total` events at `rate`/s; an event counts once NATS acknowledged it. */
async function publishPaced(total: number, rate: number, publish: (n: number) => Promise<unknown>, path: Path) {
  let events = 0;
  const t0 = Date.now();
  for (let n = 0; n < total; n++) {
    try {
      await publish(n);
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

// A sweep session of the realistic mix: subscribers of many tenants with five selections on
// the deployed topology, one tenant's subscribers resuming from their cursors during each step,
// every delivery checked against its subscriber's own tenant's events.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createNatsBus, type Bus } from '@nvcf/bus';
import { subjects } from '@nvcf/contracts';
import { DeliveryTally } from '../tally.js';
import { sessionFigures } from '../steps.js';
import type { Result } from '../run.js';
import { startMixDeployment, type MixDeployment, type MixTenantDeployment } from './deployment.js';
import { publishSpread } from './publish.js';
import { missingRemote, selectionOf, type DeliveredInstance } from './selections.js';
import { mixTenants, subscribersByTenant, tenantOf, MIX_TENANTS, RESUMING_TENANT } from './tenants.js';
import { activeAgain } from '../events.js';

export interface MixResult extends Result {
  /** deliveries of a remote selection without the fields the supergraph should have filled in */
  incomplete: number;
  resumes: number;
  replayed: number;
}

export interface MixSession {
  step(rate: number, seconds: number, drainMs: number): Promise<MixResult>;
  close(): Promise<void>;
}

/** the gateway's limit of status subscriptions per connection */
const SUBS_PER_SOCKET = 100;
/**
 * Opens per tenant and second, under the default GATEWAY_SUBSCRIPTIONS_PER_SECOND (100 per
 * tenant and replica) with room for the resumes: the setup must not meet RATE_LIMITED.
 */
const OPENS_PER_S = 50;
const TIMED = /^(\d+):(\d+):(\d+)$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface StatusData {
  instanceStatusChanged?: { cursor?: unknown; message?: unknown; instance?: DeliveredInstance | null } | null;
}

export async function openMixSession(
  subs: number,
  natsUrl: string,
  cassandra: { contactPoints: string[]; localDataCenter: string },
): Promise<MixSession> {
  const tenantList = mixTenants(MIX_TENANTS, subs);
  const T = tenantList.length;
  const byTenant = subscribersByTenant(subs, T);
  let deployment: MixDeployment | undefined;
  let bus: Bus | undefined;
  const clients: Client[] = [];
  const close = async () => {
    await Promise.all(clients.map(async (c) => c.dispose()));
    await bus?.dispose();
    await deployment?.stop();
  };
  try {
    deployment = await startMixDeployment({ natsUrl, cassandra, tenants: tenantList });
    const d = deployment;
    bus = await createNatsBus({ servers: natsUrl, name: 'bench-mix-publisher' });
    const publisher = bus;
    const rssBase = d.rssMb();
    const clusterOf = new Map(d.tenants.flatMap((t) => t.instances.map((i) => [i.id, i.clusterId])));

    const probed = new Uint8Array(subs),
      failed = new Uint8Array(subs),
      gen = new Uint32Array(subs);
    const cursors: (string | undefined)[] = new Array<string | undefined>(subs);
    const unsubscribe: (() => void)[] = new Array<() => void>(subs);
    let counted = new Uint8Array(subs);
    let stepNo = 0,
      probeHits = 0,
      lastAt = 0,
      incomplete = 0,
      errored = 0,
      firstIncomplete: string | undefined,
      firstErrored: string | undefined,
      firstError: unknown;
    let latencies: number[] = [];
    let got = new Uint32Array(subs);
    let tally = new DeliveryTally(subs, 0);

    // each tenant's subscribers on its own connections, authenticated with its token
    const clientOf: Client[] = new Array<Client>(subs);
    for (const t of d.tenants)
      for (let k = 0; k < byTenant[t.index].length; k += SUBS_PER_SOCKET) {
        const c = createClient({
          url: d.wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${t.token}` },
          retryAttempts: 0,
        });
        clients.push(c);
        for (const i of byTenant[t.index].slice(k, k + SUBS_PER_SOCKET)) clientOf[i] = c;
      }

    const subscribe = (i: number, after?: string) => {
      const g = ++gen[i];
      const t = d.tenants[tenantOf(i, T)],
        sel = selectionOf(i);
      unsubscribe[i] = clientOf[i].subscribe<StatusData>(
        { query: sel.query, variables: { f: t.functionId, after: after ?? null } },
        {
          next: (m) => {
            // a dropped subscription's last frames: its events come again through the resume
            if (gen[i] !== g) return;
            const e = m.data?.instanceStatusChanged;
            if (m.errors?.length) {
              errored++;
              firstErrored ??= `${sel.name}: ${m.errors[0].message}`;
            }
            if (!e) return;
            if (typeof e.cursor === 'string') cursors[i] = e.cursor;
            if (e.message === 'probe') {
              if (!probed[i]) probeHits++;
              probed[i] = 1;
              return;
            }
            if (!counted[i] || typeof e.message !== 'string') return;
            const x = TIMED.exec(e.message);
            if (!x || Number(x[1]) !== stepNo || !tally.record(i, Number(x[2]))) return;
            got[i]++;
            const now = Date.now();
            lastAt = now;
            latencies.push(now - Number(x[3]));
            const inst = e.instance;
            const missing = missingRemote(sel, inst, d.clusterNames.get(clusterOf.get(String(inst?.id)) ?? ''));
            if (missing) {
              incomplete++;
              firstIncomplete ??= `${sel.name}: ${missing}`;
            }
          },
          error: (err) => {
            if (gen[i] !== g) return;
            failed[i] = 1;
            firstError ??= err;
          },
          complete: () => {},
        },
      );
    };
    // every tenant opens its subscriptions at its own pace, the tenants side by side
    await Promise.all(
      byTenant.map(async (mine) => {
        for (const i of mine) {
          subscribe(i);
          await sleep(1000 / OPENS_PER_S);
        }
      }),
    );

    let clock = Date.now() * 1000;
    const publish = (t: MixTenantDeployment, n: number, message: string) => {
      const instance = t.instances[n % t.instances.length];
      const e = activeAgain({
        ncaId: t.ncaId,
        functionId: t.functionId,
        versionId: t.versionId,
        gpuSpecificationId: t.gpuSpecificationId,
        clusterId: instance.clusterId,
        instanceId: instance.id,
        revisionId: `${t.functionId}-r1`,
        clock: ++clock,
        message,
      });
      return publisher.publish(subjects.status(t.ncaId, instance.id), e);
    };

    // ready once a probe reached it; a probe of every tenant per round, until none is missing
    const deadline = Date.now() + 60_000 + subs * 6;
    for (let n = 0; Date.now() < deadline && !probed.every((x, i) => x || failed[i]); n++) {
      const before = probeHits;
      await Promise.all(d.tenants.map((t) => publish(t, n, 'probe')));
      for (const until = Date.now() + 2000; Date.now() < until && probeHits === before;) await sleep(50);
      await sleep(200);
    }
    counted = probed.slice();
    const ready = counted.reduce((s, x) => s + x, 0);
    if (ready < subs)
      console.error(
        `[bench] mix: ${ready}/${subs} subscriptions ready${firstError ? `; first error: ${describe(firstError)}` : ''}`,
      );

    const resuming = byTenant[RESUMING_TENANT];
    return {
      close,
      async step(rate, seconds, drainMs) {
        stepNo++;
        latencies = [];
        lastAt = 0;
        incomplete = 0;
        errored = 0;
        firstIncomplete = undefined;
        firstErrored = undefined;
        const step = stepNo,
          perTenant = rate * seconds;
        tally = new DeliveryTally(subs, perTenant);
        got = new Uint32Array(subs);
        const acked = Array.from({ length: T }, () => new Uint8Array(perTenant));
        const issued = new Uint32Array(T);
        // each resuming subscriber drops its subscription once, at a random moment of the step,
        // and resumes from the last cursor it received after a short gap whose events only the
        // replay can bring
        const timers = resuming.map((i) =>
          setTimeout(
            () => {
              const after = cursors[i];
              if (!after || failed[i]) return;
              gen[i]++;
              unsubscribe[i]();
              setTimeout(
                () => {
                  tally.resumed(i, issued[RESUMING_TENANT]);
                  subscribe(i, after);
                },
                50 + Math.random() * 200,
              );
            },
            (0.1 + Math.random() * 0.7) * seconds * 1000,
          ),
        );
        const { events, t0 } = await publishSpread({
          tenants: T,
          perTenant,
          rate,
          publish: (t, n) => publish(d.tenants[t], n, `${step}:${n}:${Date.now()}`),
          acked: (t, n) => {
            acked[t][n] = 1;
          },
          issued,
          onError: (err) => console.error(`[bench] mix: publish failed: ${describe(err)}`),
        });
        timers.forEach(clearTimeout);
        const liveNow = counted.map((x, i) => x & (failed[i] ^ 1));
        const ackedOf = acked.map((a) => a.reduce((s, x) => s + x, 0));
        const expected = liveNow.reduce((s, x, i) => s + x * ackedOf[tenantOf(i, T)], 0);
        for (const until = Date.now() + drainMs; Date.now() < until && tally.delivered < expected;) await sleep(100);
        const t = tally.tally(
          (i) => liveNow[i] === 1,
          (n, i) => acked[tenantOf(i, T)][n] === 1,
        );
        if (incomplete) console.error(`[bench] mix: ${incomplete} deliveries incomplete; first: ${firstIncomplete}`);
        if (t.lost)
          console.error(
            `[bench] mix: lost by selection: ${lostBySelection(liveNow, got, (i) => ackedOf[tenantOf(i, T)])}`,
          );
        if (errored) console.error(`[bench] mix: ${errored} results with errors; first: ${firstErrored}`);
        const live = liveNow.reduce((s, x) => s + x, 0);
        if (live < ready)
          console.error(`[bench] mix: ${ready - live} subscriptions failed; first error: ${describe(firstError)}`);
        const rss = d.rssMb();
        return {
          path: 'mix',
          subscribers: subs,
          ready: live,
          events,
          ...t,
          incomplete,
          ...sessionFigures({ delivered: t.delivered, t0, lastAt, seconds, latencies, rss, rssBase, subs }),
        };
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** where the losses were, for the log: a remote selection's failed fetches show here first */
function lostBySelection(live: Uint8Array, got: Uint32Array, expected: (i: number) => number) {
  const by = new Map<string, number>();
  for (let i = 0; i < live.length; i++)
    if (live[i]) by.set(selectionOf(i).name, (by.get(selectionOf(i).name) ?? 0) + expected(i) - got[i]);
  return [...by].map(([name, lost]) => `${name} ${lost}`).join(', ');
}

const describe = (err: unknown) => (err instanceof Error ? err.message : JSON.stringify(err));

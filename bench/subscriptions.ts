// Subscriptions side by side: the gateway's own fan-out vs Hive Gateway forwarding to nvca-status.
// npx tsx bench/subscriptions.ts [--subs 1000] [--rate 20] [--seconds 15]   (needs npm run services:up)
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { createNatsBus, subjects, type StatusEvent } from '@nvcf/messaging';
import { startControlPlane, percentile, gql } from './lib.js';

const arg = (name: string, d: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : d; };
const SUBS = arg('subs', 1000), RATE = arg('rate', 20), SECONDS = arg('seconds', 15);
const env = Object.fromEntries(readFileSync('.services/env', 'utf8').trim().split('\n').map((l) => l.split('=') as [string, string]));

async function run(path: 'gateway' | 'forward') {
  const cp = await startControlPlane({ NVCF_BACKEND: 'real', STATUS_PATH: path, SIM_START_DELAY_MS: '10', SIM_UPDATE_DELAY_MS: '10' });
  const bus = await createNatsBus({ servers: env.NATS_URL! });
  try {
    const v = (await gql(cp.url, 'mutation { createFunction(input: { name: "bench", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id function { id } } }')).createFunction;
    await gql(cp.url, 'mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: { gpuSpecifications: [{ gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: 10, maxInstances: 10 }] }) { id } }', { v: v.id });
    let instances: { id: string }[] = [];
    for (let i = 0; i < 200 && instances.length < 10; i++) {
      await new Promise((r) => setTimeout(r, 100));
      instances = (await gql(cp.url, 'query($v: ID!) { functionVersion(id: $v) { deployment { gpuSpecifications { instances { id state } } } } }', { v: v.id })).functionVersion.deployment.gpuSpecifications[0].instances.filter((x: any) => x.state === 'ACTIVE');
    }
    const rssBase = cp.rssMb();
    const latencies: number[] = [];
    const perSub = new Array<number>(SUBS).fill(0);
    let delivered = 0, lastAt = 0;
    const clients = Array.from({ length: Math.ceil(SUBS / 100) }, () => createClient({ url: cp.url.replace('http', 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: 'Bearer dev-token-a' }, retryAttempts: 0 }));
    for (let i = 0; i < SUBS; i++) {
      clients[Math.floor(i / 100)]!.subscribe<any>({ query: 'subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state at message instance { id cluster { id } } } }', variables: { f: v.function.id } }, {
        next: (m) => { const e = m.data?.instanceStatusChanged; if (!e || e.message === 'probe') { perSub[i] = Math.max(perSub[i]!, e ? 1 : 0); return; } delivered++; lastAt = Date.now(); latencies.push(Date.now() - Number(e.message)); },
        error: () => {}, complete: () => {},
      });
    }
    let clock = Date.now() * 1000;
    const publish = (i: number, message: string) => {
      const inst = instances[i % instances.length]!;
      const e: StatusEvent = { ncaId: 'nca-a', functionId: v.function.id, versionId: v.id, gpuSpecificationId: 's', clusterId: 'cluster-a', instanceId: inst.id, state: 'ACTIVE', previousState: 'ACTIVE', revisionId: null, at: new Date().toISOString(), clock: ++clock, message };
      return bus.publish(subjects.status('nca-a', inst.id), e);
    };
    // ready when every subscription has seen a probe (no sleeping and hoping)
    for (let t = 0; t < 120 && perSub.some((x) => !x); t++) { await publish(t, 'probe'); await new Promise((r) => setTimeout(r, 500)); }
    const ready = perSub.filter(Boolean).length;
    const total = RATE * SECONDS;
    const t0 = Date.now();
    for (let n = 0; n < total; n++) {
      await publish(n, String(Date.now()));
      const due = t0 + ((n + 1) * 1000) / RATE;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    }
    const expected = total * ready;
    for (let t = 0; t < 300 && delivered < expected; t++) await new Promise((r) => setTimeout(r, 100));
    const rss = cp.rssMb();
    for (const c of clients) await c.dispose();
    return { path, subscribers: SUBS, ready, events: total, delivered, lost: expected - delivered, events_per_s: Math.round(delivered / ((lastAt - t0) / 1000)), p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99), rss_mb: Math.round(rss), rss_per_1k_subs_mb: Math.round(((rss - rssBase) / SUBS) * 1000 * 10) / 10 };
  } finally {
    await bus.dispose();
    await cp.stop();
  }
}

const results = [await run('gateway'), await run('forward')];
console.table(results);
const file = 'bench/results/latest.json';
const prev = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const [ours, hive] = results;
writeFileSync(file, JSON.stringify({ ...prev, date: new Date().toISOString(), machine: `${process.platform} ${process.arch}, ${(await import('node:os')).cpus().length} cores`,
  subscriptions: { ours_events_per_s: ours!.events_per_s, hive_gateway_events_per_s: hive!.events_per_s, ours_p99_ms: ours!.p99_ms, hive_p99_ms: hive!.p99_ms, lost_events: ours!.lost, rss_per_1k_subs_mb: ours!.rss_per_1k_subs_mb, subscribers: SUBS, rate_per_s: RATE, seconds: SECONDS, detail: results } }, null, 2));
process.exit(0);

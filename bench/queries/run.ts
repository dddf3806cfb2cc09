import { writeFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { spawnProcess, waitForLine, freePort, type Started } from '../lib.js';
import { benchSupergraph } from './compose.js';
import { ensurePeer } from '../peers/install.js';
import { gateways, prepareNative, type GatewaySpec } from './gateways.js';
import { isExpectedAnswer, requestBody, requestHeaders } from './request.js';

// Two cores: the gateway under test gets core 0 to itself; subgraphs and load share core 1.
const GATEWAY_CORE = '0',
  REST_CORE = '1';
const tsx = 'node_modules/.bin/tsx';
const PIDS = '.services/pids';

export interface QueryOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** every gateway is measured once per round, rounds interleaved; the median round counts */
  rounds: number;
  only?: GatewaySpec['key'][];
}
export interface QueryResult {
  key: GatewaySpec['key'];
  label: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  peak_rss_mb: number;
  requests: number;
  bad: number;
  /** subgraph fetches per answered request: what in-flight deduplication and batching save */
  subgraph_calls_per_request: number;
  rounds_rps: number[];
}
type Round = Omit<QueryResult, 'rounds_rps'>;

async function readyAndCorrect(url: string, proc: Started, label: string) {
  for (let attempt = 0; ; attempt++) {
    if (proc.child.exitCode !== null) throw new Error(`${label} exited before it answered`);
    const body = await fetch(url, { method: 'POST', headers: requestHeaders, body: requestBody() }).then(
      (r) => r.text(),
      (err: Error) => err,
    );
    if (typeof body === 'string') {
      if (!isExpectedAnswer(body)) throw new Error(`${label} answered TestQuery wrongly: ${body.slice(0, 300)}`);
      return;
    }
    if (attempt > 600) throw new Error(`${label} not answering at ${url}: ${body.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Subgraph calls the benchmark subgraphs have served so far. */
const subgraphCalls = async (base: string) =>
  ((await (await fetch(`${base}/_calls`)).json()) as { calls: number }).calls;

async function load(url: string, seconds: number, connections: number) {
  const proc = spawnProcess(
    tsx,
    ['--conditions=source', 'bench/queries/load.ts', url, String(seconds), String(connections)],
    { cores: REST_CORE },
  );
  const [line] = await waitForLine(proc.child, /^\{.*\}$/m, 'load generator');
  await proc.stop();
  return JSON.parse(line) as { rps: number; p50_ms: number; p99_ms: number; requests: number; bad: number };
}

/**
 * Services left running (npm run services:up) and this process (it samples memory with `ps`)
 * move to the load's core for the duration: core 0 is the gateway's alone.
 */
function pinServices(cores: string): () => void {
  const services = existsSync(PIDS)
    ? readdirSync(PIDS)
        .filter((f) => f.endsWith('.pid'))
        .map((f) => readFileSync(`${PIDS}/${f}`, 'utf8').trim())
    : [];
  const pids = [...services, String(process.pid)];
  const set = (c: string) => {
    for (const pid of pids)
      try {
        execFileSync('taskset', ['-a', '-p', '-c', c, pid], { stdio: 'ignore' });
      } catch {
        /* not running */
      }
  };
  set(cores);
  return () => set(`0-${cpus().length - 1}`);
}

async function measure(spec: GatewaySpec, supergraph: string, base: string, opts: QueryOptions): Promise<Round> {
  if (spec.peer) ensurePeer(spec.peer);
  const port = await freePort();
  const { cmd, args, cwd, env } = spec.command(supergraph, base, port);
  const proc = spawnProcess(cmd, args, {
    cwd,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'error', ...env },
    cores: GATEWAY_CORE,
  });
  try {
    const url = `http://127.0.0.1:${port}/graphql`;
    await readyAndCorrect(url, proc, spec.label);
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, proc.rssMb());
    }, 250);
    await load(url, opts.warmupSeconds, opts.connections);
    const before = await subgraphCalls(base);
    const r = await load(url, opts.seconds, opts.connections);
    const calls = (await subgraphCalls(base)) - before;
    clearInterval(sampler);
    console.error(
      `queries: ${spec.key} ${r.rps} rps, p99 ${r.p99_ms} ms, ${r.bad} bad, ${calls} subgraph calls for ${r.requests} requests`,
    );
    return {
      key: spec.key,
      label: spec.label,
      rps: r.rps,
      p50_ms: r.p50_ms,
      p99_ms: r.p99_ms,
      peak_rss_mb: Math.round(Math.max(peak, proc.rssMb())),
      requests: r.requests,
      bad: r.bad,
      subgraph_calls_per_request: r.requests ? Math.round((calls / r.requests) * 100) / 100 : 0,
    };
  } finally {
    await proc.stop();
  }
}

/** Peers that could not be built on this machine, each with the reason (the run goes on without them). */
export const skippedPeers: { key: GatewaySpec['key']; label: string; reason: string }[] = [];

export async function runQueries(opts: QueryOptions): Promise<QueryResult[]> {
  // native peers are built (or found in .cache/) before anything is timed or pinned
  const wanted = gateways.filter((g) => !opts.only || opts.only.includes(g.key));
  const unbuilt = new Set<GatewaySpec['key']>();
  for (const g of wanted) {
    const reason = prepareNative(g);
    if (reason) {
      console.error(`queries: skipping ${g.key}: ${reason}`);
      skippedPeers.push({ key: g.key, label: g.label, reason });
      unbuilt.add(g.key);
    }
  }
  const restore = pinServices(REST_CORE);
  const subgraphs = spawnProcess(tsx, ['--conditions=source', 'bench/queries/subgraphs/server.ts', '0'], {
    cores: REST_CORE,
  });
  const rounds = new Map<GatewaySpec['key'], Round[]>();
  const chosen = wanted.filter((g) => !unbuilt.has(g.key));
  try {
    const [, base] = await waitForLine(subgraphs.child, /subgraphs ready (\S+)/, 'benchmark subgraphs');
    const supergraph = join(tmpdir(), `bench-supergraph-${process.pid}.graphql`);
    writeFileSync(supergraph, benchSupergraph(base));
    for (let round = 0; round < opts.rounds; round++) {
      // each round starts with a different gateway: no one always runs first (or after the ceiling)
      const order = [...chosen.slice(round % chosen.length), ...chosen.slice(0, round % chosen.length)];
      for (const spec of order)
        rounds.set(spec.key, [...(rounds.get(spec.key) ?? []), await measure(spec, supergraph, base, opts)]);
    }
  } finally {
    await subgraphs.stop();
    restore();
  }
  return chosen
    .map((g) => rounds.get(g.key)!)
    .map((rs) => {
      const median = [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)];
      return {
        ...median,
        peak_rss_mb: Math.max(...rs.map((r) => r.peak_rss_mb)),
        bad: rs.reduce((n, r) => n + r.bad, 0),
        rounds_rps: rs.map((r) => r.rps),
      };
    });
}

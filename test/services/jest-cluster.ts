/**
 * The cluster for `npm run test:cluster`, run under tsx by its jest global setup and teardown:
 *   jest-cluster.ts up <runPid>    start (or reuse) the 3-node NATS cluster and Cassandra ring, print the env as JSON
 *   jest-cluster.ts down <runPid>  stop it when that run started it
 * .services/env is left alone: the tests take the env from the setup, not from that file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { clusterDir, clusterDown, clusterUp, nodePid, readClusterState } from './cluster.js';
import { log } from './process.js';
import { servicePaths, withLock } from './state.js';

const p = servicePaths();
const record = path.join(clusterDir(p), 'jest-run.json');

async function up(pid: number) {
  const state = readClusterState(p);
  const wasUp = !!state && state.nodes.every((n) => nodePid(p, n) !== undefined);
  const env = await withLock(p, () => clusterUp(p));
  fs.writeFileSync(record, JSON.stringify({ pid, started: !wasUp }) + '\n');
  log(`test:cluster run ${pid}: ${wasUp ? 'reusing the running cluster' : 'started the cluster'}`);
  process.stdout.write(JSON.stringify(env));
}

async function down(pid: number) {
  let started = false;
  try {
    const r = JSON.parse(fs.readFileSync(record, 'utf8')) as { pid: number; started: boolean };
    started = r.pid === pid && r.started;
  } catch {
    /* no record: nothing of ours to stop */
  }
  fs.rmSync(record, { force: true });
  if (started) await withLock(p, () => clusterDown(p));
  log(`test:cluster run ${pid}: ${started ? 'stopped the cluster' : 'left the cluster running'}`);
}

const [cmd, pidArg] = process.argv.slice(2);
const pid = Number(pidArg);
const run = cmd === 'up' ? up : cmd === 'down' ? down : undefined;
if (!run || !Number.isInteger(pid) || pid <= 0) {
  process.stderr.write('usage: jest-cluster.ts up|down <jest pid>\n');
  process.exit(2);
}
run(pid).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[services] ${(err as Error).message ?? String(err)}\n`);
    process.exit(1);
  },
);

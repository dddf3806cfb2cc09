/** One etcd member on loopback, the storage of a local kube-apiserver. */
import fs from 'node:fs';
import { ServiceStartError } from './errors.js';
import { etcdBinary } from './kube-build.js';
import { LOOPBACK } from './ports.js';
import { isAlive, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import type { ServicePaths } from './state.js';

const START_TIMEOUT_MS = 30_000;

export const isOurEtcd = (p: ServicePaths, cmdline: string) => cmdline.startsWith(etcdBinary(p));

/** GET /health answers {"health":"true"}. */
export async function etcdHealthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok && ((await res.json()) as { health?: string }).health === 'true';
  } catch {
    return false;
  }
}

export interface EtcdOptions {
  bin: string;
  name: string;
  dataDir: string;
  clientPort: number;
  peerPort: number;
  logFile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Starts etcd and waits until it is healthy; rejects with the log's tail when it is not. */
export async function startEtcd(o: EtcdOptions): Promise<{ pid: number; url: string }> {
  fs.mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const url = `http://${LOOPBACK}:${o.clientPort}`;
  const peer = `http://${LOOPBACK}:${o.peerPort}`;
  fs.appendFileSync(o.logFile, `\n=== services: starting etcd ${new Date().toISOString()} ===\n`);
  const args = [
    '--name',
    o.name,
    '--data-dir',
    o.dataDir,
    '--listen-client-urls',
    url,
    '--advertise-client-urls',
    url,
    '--listen-peer-urls',
    peer,
    '--initial-advertise-peer-urls',
    peer,
    '--initial-cluster',
    `${o.name}=${peer}`,
    // a throwaway development store: durability is not worth an fsync per write on this machine
    '--unsafe-no-fsync',
    '--log-level',
    'warn',
  ];
  const pid = spawnDetached(o.bin, args, { cwd: o.cwd, env: o.env, logFile: o.logFile });
  const outcome = await waitUntil(() => etcdHealthy(url), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 100,
    exited: () => !isAlive(pid),
  });
  if (outcome !== 'ready') {
    await stopProcess(pid, 5000);
    const why = outcome === 'exited' ? 'exited during startup' : `not healthy after ${START_TIMEOUT_MS / 1000}s`;
    throw new ServiceStartError(`etcd ${why}; last lines of ${o.logFile}:\n${tailFile(o.logFile, 40)}`);
  }
  return { pid, url };
}

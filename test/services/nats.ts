/** nats-server: build once with `go install` into .cache/bin, run detached with JetStream. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { LOOPBACK, parseHostPort, pickPort } from './ports.js';
import { isAlive, log, runCommand, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { removePid, type ServicePaths, writePid } from './state.js';

/** Pinned nats-server release (served by the Go module proxy). */
export const NATS_SERVER_VERSION = 'v2.15.2';
const NATS_MODULE = 'github.com/nats-io/nats-server/v2';
const PREFERRED_PORT = 14222;
const PREFERRED_MONITOR_PORT = 18222;
const START_TIMEOUT_MS = 30_000;

export const natsBinary = (p: ServicePaths) => path.join(p.binDir, 'nats-server');
export const natsLogFile = (p: ServicePaths) => path.join(p.logsDir, 'nats.log');

/** True when `pid`'s command line is a nats-server we started from .cache/bin. */
export const isOurNats = (p: ServicePaths, cmdline: string) => cmdline.startsWith(natsBinary(p));

function installedVersion(bin: string): string | undefined {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/** Builds the pinned nats-server into .cache/bin unless that exact version is already there. */
export async function ensureNatsServer(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<string> {
  const bin = natsBinary(p);
  const want = NATS_SERVER_VERSION;
  if (installedVersion(bin)?.endsWith(want)) return bin;
  log(`building nats-server ${want} with go install (first run only)...`);
  const t0 = Date.now();
  await runCommand('go', ['install', `${NATS_MODULE}@${want}`], {
    cwd: p.root,
    env: { ...env, GOBIN: p.binDir, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
  });
  const got = installedVersion(bin);
  if (!got?.endsWith(want)) throw new ServiceStartError(`built ${bin} but it reports "${got}", want ${want}`);
  log(`nats-server ${want} built in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return bin;
}

/** GET <monitorUrl>/healthz?js-enabled-only=true answers 200. */
export async function natsHealthy(monitorUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${monitorUrl}/healthz?js-enabled-only=true`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** True when the first server in a NATS URL list greets with an INFO line. */
export function natsReachable(url: string, timeoutMs = 2000): Promise<boolean> {
  const first = (url.split(',')[0] ?? '')
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/^[^@]*@/, '');
  const { host, port } = parseHostPort(first, 4222);
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('data', (d: Buffer) => done(d.toString('latin1').startsWith('INFO ')));
    sock.once('error', () => done(false));
  });
}

export interface StartedNats {
  pid: number;
  env: { NATS_URL: string; NATS_MONITOR_URL: string };
}

/** Starts nats-server (JetStream on, loopback only) and waits for /healthz. */
export async function startNats(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<StartedNats> {
  const bin = await ensureNatsServer(p, env);
  const taken = new Set<number>();
  const port = await pickPort(PREFERRED_PORT, taken);
  const monitorPort = await pickPort(PREFERRED_MONITOR_PORT, taken);
  fs.mkdirSync(p.natsData, { recursive: true });
  const logFile = natsLogFile(p);
  fs.appendFileSync(logFile, `\n=== services: starting nats-server ${new Date().toISOString()} ===\n`);
  const args = ['-a', LOOPBACK, '-p', String(port), '-m', String(monitorPort), '-n', 'services-nats'];
  args.push('-js', '-sd', p.natsData);
  const monitorUrl = `http://${LOOPBACK}:${monitorPort}`;
  const natsEnv = { NATS_URL: `nats://${LOOPBACK}:${port}`, NATS_MONITOR_URL: monitorUrl };
  const pid = spawnDetached(bin, args, { cwd: p.root, env, logFile });
  writePid(p, 'nats', pid, natsEnv);
  log(`nats-server pid ${pid} on ${LOOPBACK}:${port} (monitor ${monitorPort}), waiting for JetStream...`);
  const outcome = await waitUntil(() => natsHealthy(monitorUrl), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 200,
    exited: () => !isAlive(pid),
  });
  if (outcome !== 'ready') {
    await stopProcess(pid, 5000);
    removePid(p, 'nats');
    const why = outcome === 'exited' ? 'exited during startup' : `not healthy after ${START_TIMEOUT_MS / 1000}s`;
    throw new ServiceStartError(`nats-server ${why}; last lines of ${logFile}:\n${tailFile(logFile, 50)}`);
  }
  return { pid, env: natsEnv };
}

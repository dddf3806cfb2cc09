/**
 * A throwaway nats-server for fault tests (restarts, outages). Restarting the shared one from
 * .services/ would break every other test file running against it at the same time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { ensureNatsServer, natsHealthy } from './nats.js';
import { ephemeralPort, LOOPBACK } from './ports.js';
import { isAlive, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { ensureDirs, servicePaths } from './state.js';

export interface PrivateNats extends AsyncDisposable {
  url: string;
  monitorUrl: string;
  /** Stops the server (SIGTERM, then SIGKILL); its data directory stays for the next start. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data directory, and waits for JetStream. */
  start(): Promise<void>;
  restart(): Promise<void>;
}

/** `jetstream: false` starts a plain NATS server, as one whose operator forgot `-js`. */
export async function startPrivateNats(opts: { jetstream?: boolean } = {}): Promise<PrivateNats> {
  const p = servicePaths();
  ensureDirs(p);
  const bin = await ensureNatsServer(p, process.env);
  const port = await ephemeralPort();
  const monitorPort = await ephemeralPort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-private-'));
  const logFile = path.join(p.logsDir, 'nats-private.log'); // shared by all of them, one header per start
  const monitorUrl = `http://${LOOPBACK}:${monitorPort}`;
  const args = [
    '-a',
    LOOPBACK,
    '-p',
    String(port),
    '-m',
    String(monitorPort),
    '-n',
    `private-${port}`,
    ...(opts.jetstream === false ? [] : ['-js', '-sd', dataDir]),
  ];
  let pid: number | undefined;

  const start = async () => {
    if (pid !== undefined) return;
    fs.appendFileSync(logFile, `\n=== private nats-server on port ${port}, ${new Date().toISOString()} ===\n`);
    const started = spawnDetached(bin, args, { cwd: p.root, env: process.env, logFile });
    pid = started;
    const outcome = await waitUntil(() => natsHealthy(monitorUrl), {
      timeoutMs: 30_000,
      intervalMs: 100,
      exited: () => !isAlive(started),
    });
    if (outcome !== 'ready') {
      await stop();
      throw new ServiceStartError(
        `private nats-server ${outcome === 'exited' ? 'exited during startup' : 'not healthy after 30s'}; last lines of ${logFile}:\n${tailFile(logFile, 30)}`,
      );
    }
  };
  const stop = async () => {
    if (pid === undefined) return;
    const gone = await stopProcess(pid, 10_000);
    if (!gone) throw new ServiceStartError(`private nats-server pid ${pid} did not stop`);
    pid = undefined;
  };

  await start();
  return {
    url: `nats://${LOOPBACK}:${port}`,
    monitorUrl,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async [Symbol.asyncDispose]() {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

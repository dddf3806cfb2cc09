import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type ServiceKind = 'gateway' | 'nvcf' | 'icms' | 'nvca-status' | 'nvct' | 'agent';
/** Where a service's entrypoint lives, relative to the repository (or image) root. */
export const packageDir: Record<ServiceKind, string> = {
  gateway: 'gateway',
  nvcf: 'subgraphs/nvcf',
  icms: 'subgraphs/icms',
  'nvca-status': 'subgraphs/nvca-status',
  nvct: 'subgraphs/nvct',
  agent: 'agent',
};

/** `dist`: the built JavaScript, as production runs it. `source`: the TypeScript through tsx (development). */
export type RunMode = 'dist' | 'source';

export function serviceCommand(kind: ServiceKind, mode: RunMode, root = ROOT): string[] {
  const dir = path.join(root, packageDir[kind]);
  return mode === 'dist'
    ? [path.join(dir, 'dist', 'main.js')]
    : ['--conditions=source', '--import', 'tsx', path.join(dir, 'src', 'main.ts')];
}

export interface ServiceProcess {
  name: string;
  kind: ServiceKind;
  /** base URL of its HTTP port (health, ready; the API for gateway and subgraphs) */
  url: string;
  /** base URL of GET /metrics (the gateway serves it on its own loopback port) */
  metricsUrl: string;
  pid: number;
  /** its exit code (null when killed by a signal) */
  exited: Promise<number | null>;
  /** stderr and stdout so far, for failure messages */
  output(): string;
  /** until /ready answers 200 (rejects if the process exits first or after `timeoutMs`) */
  ready(timeoutMs?: number): Promise<void>;
  /** sends the signal and resolves with the exit code (or the signal that ended it) and how long the exit took */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** sends a signal without waiting (SIGSTOP: the process hangs with its sockets open) */
  signal(signal: NodeJS.Signals): void;
}

/** A service could not bind its port: another socket took it between `freePort` and the child's listen. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

// the kernel may hand a just-closed port to the next bind(0): one process never hands it out twice
const handedOut = new Set<number>();

/** A loopback port that was free a moment ago and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const s = createServer();
    s.listen(0, '127.0.0.1');
    await once(s, 'listening');
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

export interface SpawnOptions {
  name: string;
  kind: ServiceKind;
  port: number;
  metricsPort?: number;
  env: Record<string, string>;
  mode: RunMode;
  root?: string;
  echo?: boolean;
  /** node flags before the entrypoint (`--cpu-prof`: Node 20 refuses it in NODE_OPTIONS) */
  nodeArgs?: string[];
}

/**
 * Spawns a service and waits until it is ready, on ports picked when it is spawned; a port taken by
 * another socket before the child bound it means a new pick and a new process (up to `attempts`).
 * `spawned` sees every process, ready or not (to track it, or to stop it when this rejects).
 */
export async function startService(
  o: Omit<SpawnOptions, 'port' | 'metricsPort'> & {
    port: () => Promise<number>;
    metricsPort?: () => Promise<number>;
  },
  opts: { timeoutMs?: number; spawned?: (p: ServiceProcess) => void; attempts?: number } = {},
): Promise<ServiceProcess> {
  const p = spawnService({ ...o, port: await o.port(), metricsPort: await o.metricsPort?.() });
  opts.spawned?.(p);
  try {
    await p.ready(opts.timeoutMs);
    return p;
  } catch (err) {
    const attempts = opts.attempts ?? 3;
    if (!(err instanceof PortInUseError) || attempts <= 1) throw err;
    return startService(o, { ...opts, attempts: attempts - 1 });
  }
}

/** Starts one service as its own OS process on `port`, with exactly the environment given (plus PATH). */
export function spawnService(o: SpawnOptions): ServiceProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    [...(o.nodeArgs ?? []), ...serviceCommand(o.kind, o.mode, o.root)],
    {
      cwd: o.root ?? ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        HOST: '127.0.0.1',
        ...o.env,
        PORT: String(o.port),
        ...(o.metricsPort ? { METRICS_PORT: String(o.metricsPort) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-64_000);
    if (o.echo) process.stderr.write(d.toString().replace(/^(?=.)/gm, `[${o.name}] `));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // 'exit' may come before the pipes are drained: the reason a child died is in what is still unread
  const drained = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]);
  const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, sig) => resolve([code, sig])),
  );
  const exited = ended.then(([code]) => code);
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const url = `http://127.0.0.1:${o.port}`;
  return {
    name: o.name,
    kind: o.kind,
    url,
    metricsUrl: o.metricsPort ? `http://127.0.0.1:${o.metricsPort}` : url,
    pid: child.pid!,
    exited,
    output: () => out,
    async ready(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (done) {
          await Promise.race([drained, new Promise((r) => setTimeout(r, 2000).unref())]);
          const message = `${o.name} exited before it was ready:\n${out.slice(-4000)}`;
          throw /\bEADDRINUSE\b/.test(out) ? new PortInUseError(message) : new Error(message);
        }
        try {
          if ((await fetch(`${url}/ready`, { signal: AbortSignal.timeout(1000) })).status === 200) return;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > until) throw new Error(`${o.name} not ready after ${timeoutMs} ms:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop(signal = 'SIGTERM') {
      const t = performance.now();
      if (!done) {
        child.kill('SIGCONT'); // a stopped process would not see the signal
        child.kill(signal);
      }
      const [code, sig] = await ended;
      return { code, signal: sig, ms: Math.round(performance.now() - t) };
    },
    signal(signal) {
      if (!done) child.kill(signal);
    },
  };
}

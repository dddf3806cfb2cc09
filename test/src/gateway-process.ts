import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEV_TOKENS } from '@nvcf/auth';
import { waitUntil, GiveUp } from '@nvcf/testing';
import { freePort, serviceCommand } from '@nvcf/local/topology';

export interface GatewayProcessOptions {
  /** subgraph name -> GraphQL URL (System.subgraphs) */
  subgraphs: Record<string, string>;
  natsUrl: string;
  /** the system's shared secret: tenant assertions for the subgraphs and resume cursors */
  secret: string;
  tokens?: Record<string, string>;
  startTimeoutMs?: number;
}

export interface GatewayProcess extends AsyncDisposable {
  pid: number;
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  metricsUrl: string;
  /** Sends `signal` (SIGKILL by default) and resolves once the process is gone, with how it ended. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal without waiting (SIGSTOP: the replica hangs, its sockets stay open). */
  signal(signal: NodeJS.Signals): void;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts a gateway replica in its own OS process and waits until its /ready answers 200. */
export async function startGatewayProcess(o: GatewayProcessOptions): Promise<GatewayProcess> {
  const tokens = Object.entries(o.tokens ?? DEV_TOKENS).map(([t, tenant]) => `${t}=${tenant}`).join(',');
  const [port, metricsPort] = [await freePort(), await freePort()];
  const base = (name: string) => o.subgraphs[name]!.replace(/\/graphql$/, '');
  // the gateway service's own entrypoint, as production starts it (from its sources, through tsx)
  const child = spawn(process.execPath, serviceCommand('gateway', 'source'), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', HOST: '127.0.0.1',
      PORT: String(port), METRICS_PORT: String(metricsPort), NATS_URL: o.natsUrl, NVCF_URL: base('nvcf'), ICMS_URL: base('icms'), NVCA_STATUS_URL: base('nvca-status'),
      // cursors must verify on every replica: the system signs them with its one secret too
      NVCF_INTERNAL_SECRET: o.secret, NVCF_CURSOR_SECRET: o.secret, AUTH_MODE: 'dev', AUTH_TOKENS: tokens,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-8000); });
  let gone = false;
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('exit', (code, sig) => { gone = true; resolve([code, sig]); });
    child.once('error', (err) => { gone = true; stderr += `\ncannot run ${process.execPath}: ${err.message}`; resolve([null, null]); });
  });

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (!gone) child.kill(signal);
    const [code, sig] = await exited;
    return { code, signal: sig };
  };
  const dispose = async () => {
    if (gone) return;
    child.kill('SIGCONT'); // a stopped process would not see the SIGTERM
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  };

  try {
    const url = `http://127.0.0.1:${port}`;
    const urls = { url, graphqlUrl: `${url}/graphql`, wsUrl: `ws://127.0.0.1:${port}/graphql`, metricsUrl: `http://127.0.0.1:${metricsPort}` };
    void exited.then(([code, sig]) => { if (!ready) stderr += `\nexited during startup (${sig ?? `code ${code}`})`; });
    let ready = false;
    await waitUntil(async () => {
      if (gone) throw new GiveUp(`gateway process exited during startup; stderr:\n${stderr}`);
      return (await fetch(`${urls.url}/ready`).catch(() => null))?.ok;
    }, { what: `gateway process ${child.pid} ready`, timeoutMs: o.startTimeoutMs ?? 60_000 });
    ready = true;
    return { pid: child.pid!, ...urls, kill, signal: (s) => { if (!gone) child.kill(s); }, [Symbol.asyncDispose]: dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

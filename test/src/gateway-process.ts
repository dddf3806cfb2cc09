import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEV_TOKENS } from '@nvcf/auth';
import { waitUntil } from '@nvcf/testing';

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

const CHILD = fileURLToPath(new URL('./gateway-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// workspace packages from their TypeScript sources (the `source` export condition), through tsx
const NODE_ARGS = ['--conditions=source', '--import', 'tsx', CHILD];

class GatewayProcessError extends Error {
  override name = 'GatewayProcessError';
}

/** Starts a gateway replica in its own OS process and waits until its /ready answers 200. */
export async function startGatewayProcess(o: GatewayProcessOptions): Promise<GatewayProcess> {
  const tokens = Object.entries(o.tokens ?? DEV_TOKENS).map(([t, tenant]) => `${t}=${tenant}`).join(',');
  const child = spawn(process.execPath, NODE_ARGS, {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_SUBGRAPHS: JSON.stringify(o.subgraphs), NATS_URL: o.natsUrl, NVCF_INTERNAL_SECRET: o.secret, AUTH_TOKENS: tokens },
    stdio: ['pipe', 'pipe', 'pipe'], // stdin: the child leaves when we do
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
    const urls = await new Promise<{ url: string; graphqlUrl: string; wsUrl: string; metricsUrl: string }>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new GatewayProcessError(`gateway process printed no URLs within ${o.startTimeoutMs ?? 60_000} ms; stderr:\n${stderr}`)), o.startTimeoutMs ?? 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').slice(0, -1).find((l) => l.startsWith('{')); // complete lines only
        if (line) { clearTimeout(timer); resolve(JSON.parse(line)); }
      });
      void exited.then(([code, sig]) => { clearTimeout(timer); reject(new GatewayProcessError(`gateway process exited during startup (${sig ?? `code ${code}`}); stderr:\n${stderr}`)); });
    });
    await waitUntil(async () => !gone && (await fetch(`${urls.url}/ready`)).ok, { what: `gateway process ${child.pid} ready`, timeoutMs: 15_000 });
    return { pid: child.pid!, ...urls, kill, signal: (s) => { if (!gone) child.kill(s); }, [Symbol.asyncDispose]: dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

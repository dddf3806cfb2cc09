import { DEV_TOKENS } from '@nvcf/auth';
import { freePort, startService, type ServiceProcess } from '@nvcf/local/topology';

export interface GatewayProcessOptions {
  /** subgraph name -> GraphQL URL (System.subgraphs) */
  subgraphs: Record<string, string>;
  natsUrl: string;
  /** the system's shared secret: tenant assertions for the subgraphs and resume cursors */
  secret: string;
  tokens?: Record<string, string>;
  startTimeoutMs?: number;
  /** more of the service's configuration (limits, log level), over the defaults here */
  env?: Record<string, string>;
  /** node flags before the entrypoint */
  nodeArgs?: string[];
  /** its HTTP port (a free one by default) */
  port?: number;
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

/** The gateway service's configuration as these tests start it: the system's subgraphs, secret and tokens. */
export function gatewayProcessEnv(o: GatewayProcessOptions): Record<string, string> {
  const base = (name: string) => o.subgraphs[name].replace(/\/graphql$/, '');
  return {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    NATS_URL: o.natsUrl,
    NVCF_URL: base('nvcf'),
    ICMS_URL: base('icms'),
    NVCA_STATUS_URL: base('nvca-status'),
    NVCT_URL: base('nvct'),
    // cursors must verify on every replica: the system signs them with its one secret too
    NVCF_INTERNAL_SECRET: o.secret,
    NVCF_CURSOR_SECRET: o.secret,
    AUTH_MODE: 'dev',
    AUTH_TOKENS: Object.entries(o.tokens ?? DEV_TOKENS)
      .map(([t, tenant]) => `${t}=${tenant}`)
      .join(','),
    ...o.env,
  };
}

/**
 * A gateway replica in its own OS process — the gateway service's own entrypoint, as production
 * starts it (from its sources) — next to a test system's subgraphs; ready when it returns.
 */
export async function startGatewayProcess(o: GatewayProcessOptions): Promise<GatewayProcess> {
  let last: ServiceProcess | undefined;
  let p: ServiceProcess;
  try {
    p = await startService(
      {
        name: 'gateway',
        kind: 'gateway',
        mode: 'source',
        nodeArgs: o.nodeArgs,
        port: o.port ? async () => o.port! : freePort,
        metricsPort: freePort,
        env: gatewayProcessEnv(o),
      },
      {
        timeoutMs: o.startTimeoutMs ?? 60_000,
        spawned: (s) => (last = s),
        // a port the caller chose is not picked again
        attempts: o.port ? 1 : 3,
      },
    );
  } catch (err) {
    await last?.stop('SIGKILL');
    throw err;
  }
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const { code, signal: s } = await p.stop(signal);
    return { code, signal: s };
  };
  const dispose = async () => {
    await p.stop('SIGTERM');
  };
  return {
    pid: p.pid,
    url: p.url,
    graphqlUrl: `${p.url}/graphql`,
    wsUrl: `${p.url.replace('http', 'ws')}/graphql`,
    metricsUrl: p.metricsUrl,
    kill,
    signal: (s) => p.signal(s),
    [Symbol.asyncDispose]: dispose,
  };
}

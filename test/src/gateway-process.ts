import { DEV_TOKENS } from '@nvcf/auth';
import { freePort, spawnService } from '@nvcf/local/topology';

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

/**
 * A gateway replica in its own OS process — the gateway service's own entrypoint, as production
 * starts it (from its sources) — next to a test system's subgraphs; ready when it returns.
 */
export async function startGatewayProcess(o: GatewayProcessOptions): Promise<GatewayProcess> {
  const base = (name: string) => o.subgraphs[name].replace(/\/graphql$/, '');
  const p = spawnService({
    name: 'gateway',
    kind: 'gateway',
    mode: 'source',
    nodeArgs: o.nodeArgs,
    port: await freePort(),
    metricsPort: await freePort(),
    env: {
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
    },
  });
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const { code, signal: s } = await p.stop(signal);
    return { code, signal: s };
  };
  const dispose = async () => {
    await p.stop('SIGTERM');
  };
  try {
    await p.ready(o.startTimeoutMs ?? 60_000);
  } catch (err) {
    await p.stop('SIGKILL');
    throw err;
  }
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

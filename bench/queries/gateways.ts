import { existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCosmoRouter, ensureHiveRouter, HIVE_ROUTER, type Built } from '../peers/native/build.js';

const tsx = 'node_modules/.bin/tsx';
const peer = (name: string) => `bench/peers/${name}`;

export interface GatewaySpec {
  key: 'ours' | 'hive_rust_qp' | 'hive_router' | 'cosmo_router' | 'apollo_gateway' | 'mercurius' | 'ceiling';
  label: string;
  /** a native peer: built (or found cached) before it runs, or skipped with the reason */
  build?: () => Built;
  /** command and args, given the supergraph file, the subgraphs' base URL and the port */
  command(
    supergraph: string,
    base: string,
    port: number,
  ): { cmd: string; args: string[]; cwd?: string; env?: Record<string, string> };
  peer?: string;
}

export const gateways: GatewaySpec[] = [
  {
    key: 'ours',
    label: 'ours (gateway/, Hive runtime + Rust planner + our plugins)',
    command: (sg, _b, port) => ({
      cmd: tsx,
      args: ['--conditions=source', 'bench/queries/gateways/ours.ts', sg, String(port)],
    }),
  },
  {
    key: 'hive_rust_qp',
    label: 'Hive Gateway 2.15.1 + Rust query planner',
    peer: 'hive-gateway',
    command: (sg, _b, port) => ({
      cmd: 'node',
      args: [
        'node_modules/.bin/hive-gateway',
        'supergraph',
        sg,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--fork',
        '1',
      ],
      cwd: peer('hive-gateway'),
    }),
  },
  {
    key: 'hive_router',
    label: `Hive Router ${HIVE_ROUTER.version} (Rust, crates.io)`,
    build: ensureHiveRouter,
    command: (sg, _b, port) => {
      // inbound request deduplication off, as on every gateway here (the load sends one query
      // 50 times at once, so collapsing them would measure the cache, not the router); its
      // in-flight deduplication of identical subgraph calls stays on, as ours and Hive Gateway's do
      const config = join(tmpdir(), `bench-hive-router-${port}.yaml`);
      writeFileSync(
        config,
        [
          'supergraph:',
          '  source: file',
          `  path: ${JSON.stringify(sg)}`,
          'http:',
          '  host: 127.0.0.1',
          `  port: ${port}`,
          // one worker, on the one core it is pinned to (its default counts every core)
          '  workers: 1',
          'log:',
          '  level: error',
          'traffic_shaping:',
          '  router:',
          '    dedupe:',
          '      enabled: false',
          '',
        ].join('\n'),
      );
      return { cmd: builtBin('hive_router'), args: [], env: { ROUTER_CONFIG_FILE_PATH: config } };
    },
  },
  {
    key: 'cosmo_router',
    label: 'Cosmo router (Go, Go module proxy)',
    build: ensureCosmoRouter,
    // not reached while the module proxy refuses the module: the build step says why
    command: () => ({ cmd: builtBin('cosmo_router'), args: [] }),
  },
  {
    key: 'apollo_gateway',
    label: 'Apollo Gateway 2.14.4 (Apollo Server 5.5.1)',
    peer: 'apollo-gateway',
    command: (sg, _b, port) => ({ cmd: 'node', args: ['index.mjs', sg, String(port)], cwd: peer('apollo-gateway') }),
  },
  {
    key: 'mercurius',
    label: 'Mercurius gateway 5.2.0 (Fastify 5.12.8)',
    peer: 'mercurius',
    command: (_sg, base, port) => ({ cmd: 'node', args: ['index.mjs', base, String(port)], cwd: peer('mercurius') }),
  },
  {
    key: 'ceiling',
    label: 'static server, same response body (ceiling)',
    command: (_sg, _b, port) => ({
      cmd: tsx,
      args: [
        '--conditions=source',
        'bench/queries/gateways/static.ts',
        'bench/queries/expected-response.json',
        String(port),
      ],
    }),
  },
];

const built = new Map<string, string>();
/** The binary a native peer's build step produced (set by `prepareNative`). */
const builtBin = (key: string) => {
  const bin = built.get(key);
  if (!bin) throw new Error(`${key} was not built`);
  return bin;
};

/** Builds or finds a native peer; returns why it is skipped, if it is. */
export function prepareNative(spec: GatewaySpec): string | null {
  if (!spec.build) return null;
  const r = spec.build();
  if ('skipped' in r) return r.skipped;
  built.set(spec.key, r.bin);
  return null;
}

/** Installs a peer from its lockfile the first time (the registry is the only source). */
export function ensurePeer(name: string) {
  if (existsSync(`${peer(name)}/node_modules`)) return;
  console.error(`installing bench peer ${name} (npm ci)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--workspaces=false'], {
    cwd: peer(name),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

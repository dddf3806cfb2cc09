import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCosmoRouter, ensureHiveRouter, HIVE_ROUTER, type Built } from '../peers/native/build.js';
import {
  COSMO_OFFLINE,
  composeCosmoConfig,
  cosmoRouterConfig,
  writeCosmoExecutionConfig,
} from '../peers/native/cosmo.js';
import { benchSdl, benchSubgraphs } from './subgraphs/schemas.js';

const tsx = 'node_modules/.bin/tsx';
const peer = (name: string) => `bench/peers/${name}`;

export interface GatewaySpec {
  key: 'ours' | 'hive_rust_qp' | 'hive_router' | 'cosmo_router' | 'apollo_gateway' | 'mercurius' | 'ceiling';
  label: string;
  /** a native peer: built (or found cached) before it runs, or skipped with the reason */
  build?: () => Built;
  /** a native peer's label once its build says which version it is */
  versioned?: (version: string) => string;
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
    label: 'Cosmo router (Go)',
    versioned: (v) => `Cosmo router ${v} (Go)`,
    build: buildCosmo,
    command: (_sg, base, port) => {
      // its own directory: the router reads a .env from where it starts
      const dir = mkdtempSync(join(tmpdir(), 'bench-cosmo-router-'));
      const executionConfig = join(dir, 'execution-config.json');
      writeCosmoExecutionConfig(cosmoConfig, base, executionConfig);
      const config = join(dir, 'config.yaml');
      writeFileSync(config, cosmoRouterConfig({ port, executionConfig }));
      return { cmd: builtBin('cosmo_router'), args: ['-config', config], cwd: dir, env: COSMO_OFFLINE };
    },
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

/** the cached execution config (set by `buildCosmo`), pointed at each run's subgraphs */
let cosmoConfig = '';
/** The Cosmo router and the execution config it runs from, composed from the benchmark's SDLs. */
function buildCosmo(): Built {
  const router = ensureCosmoRouter();
  if ('skipped' in router) return router;
  const config = composeCosmoConfig(benchSubgraphs.map((name) => ({ name, sdl: benchSdl(name) })));
  if ('skipped' in config) return { skipped: `Cosmo router: ${config.skipped}` };
  cosmoConfig = config.path;
  return router;
}

/** Builds or finds a native peer; returns why it is skipped, if it is. */
export function prepareNative(spec: GatewaySpec): string | null {
  if (!spec.build) return null;
  const r = spec.build();
  if ('skipped' in r) return r.skipped;
  built.set(spec.key, r.bin);
  if (spec.versioned) spec.label = spec.versioned(r.version);
  return null;
}

// The Cosmo router runs from an execution config, not a supergraph: Cosmo's CLI (wgc, from the npm
// registry, pinned in bench/peers/cosmo) composes it from the subgraph SDLs. Composing takes a while
// (a Node CLI that loads the whole composition library), so it is done once per SDL set with a
// placeholder routing base, cached under .cache/cosmo-router/configs/, and pointed at each run's
// subgraphs (their port changes every run) by rewriting that base.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePeer } from '../install.js';

const CONFIGS = resolve('.cache/cosmo-router/configs');
const WGC = resolve('bench/peers/cosmo/node_modules/.bin/wgc');
/** the routing base composed into the cached config; `.invalid` never resolves, so a missed rewrite fails loudly */
export const PLACEHOLDER = 'http://bench-subgraphs.invalid';

export interface CosmoSubgraph {
  name: string;
  sdl: string;
}

/**
 * wgc and the router report usage to their vendor unless told not to (the router's usage tracker
 * posts to an analytics host every few seconds); nothing here may leave the machine.
 */
export const COSMO_OFFLINE = { COSMO_TELEMETRY_DISABLED: 'true', DO_NOT_TRACK: '1' };

/** The cached execution config for these subgraphs (composed with wgc the first time), or why not. */
export function composeCosmoConfig(subgraphs: CosmoSubgraph[]): { path: string } | { skipped: string } {
  const wgcVersion = (
    JSON.parse(readFileSync('bench/peers/cosmo/package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies.wgc;
  const key = createHash('sha256').update(JSON.stringify({ wgcVersion, subgraphs })).digest('hex').slice(0, 16);
  const dir = join(CONFIGS, key);
  const path = join(dir, 'execution-config.json');
  if (existsSync(path)) return { path };
  ensurePeer('cosmo');
  mkdirSync(dir, { recursive: true });
  const input = ['version: 1', 'subgraphs:'];
  for (const { name, sdl } of subgraphs) {
    writeFileSync(join(dir, `${name}.graphql`), sdl);
    input.push(
      `  - name: ${name}`,
      `    routing_url: ${PLACEHOLDER}/${name}`,
      '    schema:',
      `      file: ${name}.graphql`,
    );
  }
  writeFileSync(join(dir, 'graph.yaml'), `${input.join('\n')}\n`);
  console.error(`composing the Cosmo execution config with wgc ${wgcVersion} (first run only)...`);
  const r = spawnSync(WGC, ['router', 'compose', '--suppress-warnings', '-i', 'graph.yaml', '-o', 'composing.json'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...COSMO_OFFLINE },
  });
  if (r.status !== 0 || !existsSync(join(dir, 'composing.json')))
    return { skipped: `wgc router compose failed: ${(r.stderr || r.stdout || '').trim().slice(-400)}` };
  // renamed into place only whole, so an interrupted compose is not taken for a cached one
  renameSync(join(dir, 'composing.json'), path);
  return { path };
}

/** The cached execution config with its subgraphs at `base`/<name>, written to `out`. */
export function writeCosmoExecutionConfig(cached: string, base: string, out: string) {
  writeFileSync(out, readFileSync(cached, 'utf8').replaceAll(PLACEHOLDER, base));
}

/**
 * The router's own config: the execution config from a file, everything that would call out
 * (usage metrics, OTLP, registration with a control plane) off, and what no other gateway here
 * does per request (access logs, inbound request deduplication, introspection, playground) off.
 */
export function cosmoRouterConfig(o: { port: number; executionConfig: string; extra?: string[] }): string {
  return [
    'version: "1"',
    `listen_addr: 127.0.0.1:${o.port}`,
    'graphql_path: /graphql',
    'log_level: error',
    'json_log: true',
    'dev_mode: false',
    'playground_enabled: false',
    'introspection:',
    '  enabled: false',
    'router_registration: false',
    // the shortest shutdown the router's config schema accepts: it ends sooner when nothing is in flight
    'shutdown_delay: 15s',
    'grace_period: 1s',
    'execution_config:',
    '  file:',
    `    path: ${JSON.stringify(o.executionConfig)}`,
    '    watch: false',
    'graphql_metrics:',
    '  enabled: false',
    'access_logs:',
    '  enabled: false',
    'telemetry:',
    '  tracing:',
    '    enabled: false',
    '  metrics:',
    '    otlp:',
    '      enabled: false',
    '    prometheus:',
    '      enabled: false',
    'engine:',
    '  enable_inbound_request_deduplication: false',
    ...(o.extra ?? []),
    '',
  ].join('\n');
}

import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensureCosmoRouter } from '../native/build.js';
import { cosmoRouterConfig, PLACEHOLDER, writeCosmoExecutionConfig } from '../native/cosmo.js';

// The Cosmo router cannot be built from the module proxy here, so the benchmark takes it from
// COSMO_ROUTER_BIN: these pin how that binary is found and what it is started with.
describe('native peers: the Cosmo router', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-native-'));
  const saved = process.env.COSMO_ROUTER_BIN;
  afterEach(() => {
    if (saved === undefined) delete process.env.COSMO_ROUTER_BIN;
    else process.env.COSMO_ROUTER_BIN = saved;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the binary from COSMO_ROUTER_BIN, with the release its -version reports', () => {
    const bin = join(dir, 'router');
    // the shape of `router -version`: the release on the line after "Router:"
    writeFileSync(
      bin,
      '#!/bin/sh\n[ "$1" = -version ] || exit 3\nprintf "Router:\\n  Version: 0.341.0\\n  Go version: go1.26.8\\n"\n',
    );
    chmodSync(bin, 0o755);
    process.env.COSMO_ROUTER_BIN = bin;
    expect(ensureCosmoRouter()).toEqual({ bin, version: '0.341.0' });
  });

  it('skips the peer, naming the variable, when COSMO_ROUTER_BIN points nowhere or the binary fails', () => {
    process.env.COSMO_ROUTER_BIN = join(dir, 'absent');
    expect(ensureCosmoRouter()).toEqual({ skipped: expect.stringContaining('COSMO_ROUTER_BIN') });
    const broken = join(dir, 'broken');
    writeFileSync(broken, '#!/bin/sh\necho "not a router" >&2\nexit 1\n');
    chmodSync(broken, 0o755);
    process.env.COSMO_ROUTER_BIN = broken;
    expect(ensureCosmoRouter()).toEqual({ skipped: expect.stringContaining('not a router') });
  });

  it("points every routing URL of the cached execution config at the run's subgraphs", () => {
    const cached = join(dir, 'cached.json');
    const fetchUrl = (name: string) => ({ url: { staticVariableContent: `${PLACEHOLDER}/${name}` } });
    writeFileSync(
      cached,
      JSON.stringify({
        engineConfig: { datasourceConfigurations: [{ customGraphql: { fetch: fetchUrl('accounts') } }] },
        subgraphs: [{ name: 'accounts', routingUrl: `${PLACEHOLDER}/accounts` }],
      }),
    );
    const out = join(dir, 'run.json');
    writeCosmoExecutionConfig(cached, 'http://127.0.0.1:4321', out);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(PLACEHOLDER);
    const config = JSON.parse(text);
    expect(config.subgraphs[0].routingUrl).toBe('http://127.0.0.1:4321/accounts');
    expect(config.engineConfig.datasourceConfigurations[0].customGraphql.fetch.url.staticVariableContent).toBe(
      'http://127.0.0.1:4321/accounts',
    );
  });

  it('starts the router on loopback from the file, with nothing that calls out and no inbound dedup', () => {
    const config = parse(cosmoRouterConfig({ port: 4000, executionConfig: '/tmp/x y.json' }));
    expect(config.listen_addr).toBe('127.0.0.1:4000');
    expect(config.execution_config.file).toEqual({ path: '/tmp/x y.json', watch: false });
    expect(config.router_registration).toBe(false);
    expect(config.graphql_metrics.enabled).toBe(false);
    expect(config.telemetry.tracing.enabled).toBe(false);
    expect(config.telemetry.metrics.otlp.enabled).toBe(false);
    expect(config.engine.enable_inbound_request_deduplication).toBe(false);
  });
});

// Native routers as benchmark peers, built from their registries on first use and cached under
// .cache/ (like nats-server in test/services/nats.ts): Hive Router from crates.io with
// `cargo install --locked`, the Cosmo router from the Go module proxy with `go install` unless
// COSMO_ROUTER_BIN names a binary. A missing toolchain or a refused download skips that peer with
// the reason, never the benchmark.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const CACHE = resolve('.cache');

export type Built = { bin: string; version: string } | { skipped: string };

/**
 * hive-router 0.3.10, the newest release on crates.io (2026-12-02). Its locked ntex 4 crates
 * declare rustc 1.97 but compile with this machine's 1.95, so cargo is told to ignore the declared
 * minimum (`--ignore-rust-version`; a rustc that meets it is unaffected). The `graphiql` feature
 * swaps the bundled Laboratory UI for GraphiQL: without it the crate's build script runs `npm
 * install` of a Laboratory tarball the npm registry does not serve. Neither changes query execution.
 */
export const HIVE_ROUTER = { crate: 'hive-router', version: '0.3.10', features: 'graphiql' };

/**
 * The Cosmo router's module has no Go-style version tags (its releases are tagged router@x.y.z),
 * so it is pinned by the pseudo-version of the router@0.341.0 release commit.
 */
export const COSMO_ROUTER = {
  module: 'github.com/wundergraph/cosmo/router',
  pkg: 'github.com/wundergraph/cosmo/router/cmd/router',
  release: '0.341.0',
  version: 'v0.0.0-20260818122706-e7b12b1beac4',
};

const has = (tool: string) => spawnSync(tool, ['version'], { stdio: 'ignore' }).status === 0;
/** the last lines of a failed build, enough to say why */
const tail = (s: string) => s.trim().split('\n').slice(-4).join(' | ').slice(0, 400);

/** Remembers a failed build per version, so a refused download is not retried on every run. */
function stamp(dir: string, want: string): { ok?: boolean; reason?: string } {
  const f = join(dir, 'build.json');
  if (!existsSync(f)) return {};
  const s = JSON.parse(readFileSync(f, 'utf8')) as { version?: string; ok?: boolean; reason?: string };
  return s.version === want ? s : {};
}
const record = (dir: string, version: string, ok: boolean, reason?: string) =>
  writeFileSync(join(dir, 'build.json'), JSON.stringify({ version, ok, reason, at: new Date().toISOString() }));

export function ensureHiveRouter(): Built {
  const dir = join(CACHE, 'hive-router');
  const bin = join(dir, 'bin', 'hive_router');
  const want = `${HIVE_ROUTER.crate}@${HIVE_ROUTER.version}`;
  const s = stamp(dir, want);
  if (s.ok && existsSync(bin)) return { bin, version: HIVE_ROUTER.version };
  if (s.ok === false && !process.env.BENCH_REBUILD)
    return { skipped: `Hive Router: ${s.reason} (BENCH_REBUILD=1 retries)` };
  if (!has('cargo'))
    return { skipped: 'Hive Router: no cargo on this machine (install Rust with rustup to include it)' };
  mkdirSync(dir, { recursive: true });
  console.error(
    `building ${want} with cargo install --locked (first run only, and a long one: it compiles several hundred crates)...`,
  );
  const r = spawnSync(
    'nice',
    [
      ...['-n', '19', 'cargo', 'install', '--locked', '--ignore-rust-version'],
      ...['--features', HIVE_ROUTER.features, '--root', dir, want],
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
      maxBuffer: 64 << 20,
      // a build target kept under .cache: an interrupted build resumes instead of starting over
      env: { ...process.env, CARGO_TARGET_DIR: join(dir, 'target') },
    },
  );
  if (r.status !== 0 || !existsSync(bin)) {
    const reason = `cargo install ${want} failed: ${tail(r.stderr ?? '')}`;
    record(dir, want, false, reason);
    return { skipped: `Hive Router: ${reason}` };
  }
  record(dir, want, true);
  return { bin, version: HIVE_ROUTER.version };
}

/** A Cosmo router binary named by COSMO_ROUTER_BIN, with the release it reports. */
function cosmoFromEnv(bin: string): Built {
  if (!existsSync(bin)) return { skipped: `Cosmo router: COSMO_ROUTER_BIN=${bin} does not exist` };
  const r = spawnSync(bin, ['-version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return { skipped: `Cosmo router: ${bin} -version failed: ${tail(r.stderr || r.stdout || '')}` };
  // `Router:\n  Version: 0.341.0\n  Go version: …`; a build without the release's ldflags says "dev"
  const version = /^\s*Version: (\S+)/m.exec(r.stdout)?.[1] ?? 'unknown version';
  return { bin: resolve(bin), version };
}

/**
 * COSMO_ROUTER_BIN first (any Cosmo router binary, however it was built), else the pinned release
 * from the Go module proxy. The proxy refuses the module and one of its dependencies
 * (go.withmatt.com/connect-brotli), so without the variable the peer is skipped with that reason.
 */
export function ensureCosmoRouter(): Built {
  const fromEnv = process.env.COSMO_ROUTER_BIN;
  if (fromEnv) return cosmoFromEnv(fromEnv);
  const hint = 'set COSMO_ROUTER_BIN to a Cosmo router binary to include it';
  const dir = join(CACHE, 'cosmo-router');
  const bin = join(dir, 'router');
  const want = `${COSMO_ROUTER.pkg}@${COSMO_ROUTER.version}`;
  const s = stamp(dir, want);
  if (s.ok && existsSync(bin)) return { bin, version: COSMO_ROUTER.release };
  if (s.ok === false && !process.env.BENCH_REBUILD)
    return { skipped: `Cosmo router: ${s.reason} (${hint}; BENCH_REBUILD=1 retries)` };
  if (!has('go')) return { skipped: `Cosmo router: no go on this machine (${hint})` };
  mkdirSync(dir, { recursive: true });
  console.error(`building the Cosmo router ${COSMO_ROUTER.release} with go install (first run only)...`);
  let out = '';
  try {
    out = execFileSync('nice', ['-n', '19', 'go', 'install', want], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0', GOFLAGS: '-mod=mod -buildvcs=false' },
    });
  } catch (err) {
    const e = err as { stderr?: string };
    const reason = `go install ${want} failed: ${tail(e.stderr ?? out)}`;
    record(dir, want, false, reason);
    return { skipped: `Cosmo router: ${reason} (${hint})` };
  }
  record(dir, want, true);
  return { bin, version: COSMO_ROUTER.release };
}

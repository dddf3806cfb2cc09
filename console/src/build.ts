import { withDirLock } from '@nvcf/lifecycle';
/**
 * The web build on demand: `npm run build` and `npm start` call it, and it runs Vite only when
 * the inputs changed since the build in dist/web (a content hash, kept next to the build), so a
 * warm start costs only the hashing. Development only: the production image holds
 * the build and never imports this (Vite is a devDependency).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const ROOT = path.resolve(PACKAGE, '..');
const OUT = path.join(PACKAGE, 'dist', 'web');
const STAMP = '.build-hash';
const LOCK = path.join(ROOT, '.cache', 'web-build.lock');

/**
 * What a build is made of: the pages' sources, the configuration shared with the gateway, Vite's
 * and TypeScript's configuration, the client it is built on (@nvcf/client), and the lockfile (a dependency's new version is a new build).
 */
const INPUTS = [
  'web',
  'src/page-config.ts',
  'src/build.ts',
  'vite.config.ts',
  'package.json',
  '../package-lock.json',
  '../client/src',
  '../client/package.json',
];

export class WebBuildFailed extends Error {
  override name = 'WebBuildFailed';
}

export interface WebBuildResult {
  /** false: dist/web was already built from these inputs */
  built: boolean;
  ms: number;
  hash: string;
  dir: string;
}

function files(rel: string): string[] {
  const abs = path.join(PACKAGE, rel);
  if (!fs.existsSync(abs)) return [];
  if (!fs.statSync(abs).isDirectory()) return [rel];
  return fs
    .readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(rel, f))
    .filter((f) => fs.statSync(path.join(PACKAGE, f)).isFile())
    .sort();
}

/** The hash of every input file's path and content. */
function webInputsHash(): string {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap(files))
    h.update(f)
      .update('\0')
      .update(fs.readFileSync(path.join(PACKAGE, f)))
      .update('\0');
  return h.digest('hex');
}

const builtHash = (dir = OUT) => {
  try {
    return fs.existsSync(path.join(dir, 'ide.html'))
      ? fs.readFileSync(path.join(dir, STAMP), 'utf8').trim()
      : undefined;
  } catch {
    return undefined;
  }
};

const withLock = <T>(fn: () => Promise<T>) => withDirLock(LOCK, fn);

/** `vite build` into `outDir`, its output kept for the error when it fails. */
function runVite(outDir: string): Promise<void> {
  const vite = path.join(
    path.dirname(createRequire(path.join(PACKAGE, 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir'], {
      // always the production build of React: jest sets NODE_ENV=test, which would bundle React's development build
      cwd: PACKAGE,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.once('error', (err) => reject(new WebBuildFailed(`cannot run vite: ${err.message}`, { cause: err })));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new WebBuildFailed(`vite build exited with ${code}:\n${out}`)),
    );
  });
}

/**
 * Builds dist/web unless it was built from the current inputs (`force`: always). The new build
 * is made beside the old one and swapped in, so a reader never sees half of one.
 */
export async function ensureWebBuild(
  opts: { force?: boolean; log?: (text: string) => void } = {},
): Promise<WebBuildResult> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  const hash = webInputsHash();
  if (!opts.force && builtHash() === hash) return { built: false, ms: ms(), hash, dir: OUT };
  return withLock(async () => {
    if (!opts.force && builtHash() === hash) return { built: false, ms: ms(), hash, dir: OUT };
    opts.log?.(
      `building the GraphQL IDE and the console into ${path.relative(ROOT, OUT)} (${builtHash() ? 'sources changed' : 'not built yet'})…`,
    );
    const next = `${OUT}.next-${process.pid}`;
    const old = `${OUT}.old-${process.pid}`;
    fs.rmSync(next, { recursive: true, force: true });
    try {
      await runVite(next);
      fs.writeFileSync(path.join(next, STAMP), `${hash}\n`);
      if (fs.existsSync(OUT)) fs.renameSync(OUT, old);
      fs.renameSync(next, OUT);
    } finally {
      fs.rmSync(next, { recursive: true, force: true });
      fs.rmSync(old, { recursive: true, force: true });
    }
    return { built: true, ms: ms(), hash, dir: OUT };
  });
}

/**
 * What the container image holds, in one place. The Dockerfile runs it, and the image test
 * (test/e2e/image.real.test.ts) stages the same files, so the two cannot drift apart:
 *
 *   node --experimental-strip-types scripts/image-files.ts manifests OUT   root and workspace package.json files, lockfile
 *   node --experimental-strip-types scripts/image-files.ts runtime OUT     bin/, the built dist/ of what runs, runtime assets
 *
 * Only node: built-ins here: the Dockerfile runs it before `npm ci`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The packages whose mains bin/nvcf.js starts (migrate is @nvcf/cassandra's); their @nvcf dependencies come along. */
const ENTRY_PACKAGES = [
  '@nvcf/gateway',
  '@nvcf/subgraph-nvcf',
  '@nvcf/subgraph-icms',
  '@nvcf/subgraph-nvca-status',
  '@nvcf/subgraph-nvct',
  '@nvcf/agent',
  '@nvcf/webhook',
  '@nvcf/ops',
  '@nvcf/cassandra',
];

/**
 * Files the services read at run time. Code finds them relative to its package root
 * (`new URL('../…', import.meta.url)` holds from src/ and from dist/ alike).
 */
const ASSETS: { dir: string; keep: (file: string) => boolean; built?: true }[] = [
  { dir: 'schema', keep: (f) => !f.includes('/') && f.endsWith('.graphql') }, // SDLs and the supergraph (@nvcf/schema)
  { dir: 'client', keep: (f) => f === 'persisted-documents.json' }, // the gateway's trusted documents (TRUSTED_DOCUMENTS_FILE)
  { dir: 'deploy', keep: (f) => f === 'operators.yaml' }, // the operator registry (@nvcf/operators)
  { dir: 'deploy/migrations', keep: () => true }, // CQL per keyspace (migrate, preflight)
  { dir: 'console/dist/web', keep: (f) => !f.startsWith('.'), built: true }, // the IDE and the console, built by Vite (the gateway serves them)
];

class NotBuilt extends Error {
  override name = 'NotBuilt';
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  workspaces?: string[];
}
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;

/** Every file under `dir`, relative to it, '/'-separated. */
function walk(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, rel) : [rel];
  });
}

/** Workspace folders (relative), from the root package.json (`dir` or `dir/*`). */
export function workspaces(root: string): string[] {
  return (readJson(path.join(root, 'package.json')).workspaces ?? []).flatMap((w) => {
    if (!w.endsWith('/*')) return [w];
    const parent = w.slice(0, -2);
    return fs
      .readdirSync(path.join(root, parent))
      .map((d) => `${parent}/${d}`)
      .filter((d) => fs.existsSync(path.join(root, d, 'package.json')))
      .sort();
  });
}

/** What `npm ci` reads: the lockfile and every package.json of the workspace tree. */
export function manifestFiles(root: string): string[] {
  return ['package.json', 'package-lock.json', ...workspaces(root).map((w) => `${w}/package.json`)];
}

/** Workspace folders the entry packages need at run time (themselves and their @nvcf dependencies). */
function runtimePackages(root: string): string[] {
  const byName = new Map(workspaces(root).map((w) => [readJson(path.join(root, w, 'package.json')).name, w]));
  const need = new Set<string>();
  const visit = (name: string) => {
    const dir = byName.get(name);
    if (!dir) throw new Error(`${name} is not a workspace of ${root}`);
    if (need.has(dir)) return;
    need.add(dir);
    for (const dep of Object.keys(readJson(path.join(root, dir, 'package.json')).dependencies ?? {}))
      if (byName.has(dep)) visit(dep);
  };
  ENTRY_PACKAGES.forEach(visit);
  return [...need].sort();
}

/** The launcher, every needed package's built JavaScript (declarations and build info stay behind), the assets. */
export function runtimeFiles(root: string): string[] {
  const files = ['bin/nvcf.js'];
  for (const dir of runtimePackages(root)) {
    const dist = path.join(root, dir, 'dist');
    if (!fs.existsSync(path.join(dist, 'index.js')))
      throw new NotBuilt(`${dir}/dist/index.js is missing: run npm run build first`);
    files.push(
      ...walk(dist)
        .filter((f) => f.endsWith('.js'))
        .map((f) => `${dir}/dist/${f}`),
    );
  }
  for (const a of ASSETS) {
    if (a.built && !fs.existsSync(path.join(root, a.dir)))
      throw new NotBuilt(`${a.dir} is missing: run npm run build first`);
    files.push(
      ...walk(path.join(root, a.dir))
        .filter(a.keep)
        .map((f) => `${a.dir}/${f}`),
    );
  }
  // a package's dist/ may hold built assets too (console/dist/web): each file once
  return [...new Set(files)];
}

/** Copies `files` (relative to `root`) into `out`, keeping their paths and modes. */
export function copyFiles(root: string, files: string[], out: string): void {
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(out, f));
    fs.chmodSync(path.join(out, f), fs.statSync(path.join(root, f)).mode);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [what, out] = process.argv.slice(2);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if ((what !== 'manifests' && what !== 'runtime') || !out) {
    console.error('usage: image-files.ts manifests|runtime OUT');
    process.exit(2);
  }
  try {
    const files = what === 'manifests' ? manifestFiles(root) : runtimeFiles(root);
    copyFiles(root, files, path.resolve(out));
    console.log(`${what}: ${files.length} files into ${out}`);
  } catch (err) {
    console.error(`image-files: ${(err as Error).message}`);
    process.exit(1);
  }
}

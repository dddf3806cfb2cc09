/**
 * The published shape of @nvcf/cli: `npm publish --dry-run` of both published packages, then the
 * CLI packed and installed with `npm install -g` into a temporary prefix (its dependencies from
 * the registry, as a user gets them) and `nvcf` run from that prefix's bin/ against the embedded
 * system.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startSystem, type System } from '@nvcf/local';
import { buildDist } from '../src/index.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// --ignore-scripts: prepack's build already ran in buildDist, under the lock other tests build with
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'], {
    cwd,
    maxBuffer: 16 << 20,
  });
const version = (dir: string) =>
  (JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { version: string }).version;

describe('@nvcf/cli, packed and installed globally', () => {
  let system: System;
  let dir: string;
  beforeAll(async () => {
    await buildDist();
    system = await startSystem();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-cli-global-'));
  }, 300_000);
  afterAll(async () => {
    await system?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['client', 'cli'])('npm publish --dry-run passes for %s, with nothing npm had to correct', async (pkg) => {
    const { stdout, stderr } = await npm(['publish', '--dry-run', '--json'], path.join(ROOT, pkg));
    // keyed by package name (npm 11)
    const [published] = Object.values(JSON.parse(stdout) as Record<string, { id: string }>);
    expect(published?.id).toBe(`@nvcf/${pkg}@${version(pkg)}`);
    // the only warning left is that a dry run needs no login; npm drops an invalid `bin` with a warning only
    expect(stderr.split('\n').filter((l) => /warn/i.test(l) && !/logged in/.test(l))).toEqual([]);
  });

  it('installs from its tarball into a prefix; nvcf --version and nvcf clusters -o json run from its bin/', async () => {
    const pack = async (pkg: string) => {
      const { stdout } = await npm(['pack', '--json', '--pack-destination', dir], path.join(ROOT, pkg));
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      return packed;
    };
    const cli = await pack('cli');
    const files = cli.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'bin/nvcf.js', 'dist/main.js', 'CHANGELOG.md']));
    expect(files.filter((f) => f.startsWith('src/') || f.includes('.test.') || f.endsWith('.tsbuildinfo'))).toEqual([]);
    // its dependency @nvcf/client is not on the registry until the first release publishes both:
    // installed together, as `npm install -g @nvcf/cli` will fetch it then
    const client = await pack('client');
    const prefix = path.join(dir, 'global');
    await npm(
      ['install', '-g', '--prefix', prefix, path.join(dir, client.filename), path.join(dir, cli.filename)],
      dir,
    );
    const installed = path.join(prefix, 'lib/node_modules/@nvcf/cli');
    expect(fs.realpathSync(installed).startsWith(ROOT)).toBe(false);
    expect(fs.existsSync(path.join(installed, 'src'))).toBe(false);

    const nvcf = (...argv: string[]) =>
      run(path.join(prefix, 'bin/nvcf'), argv, {
        cwd: dir,
        // nothing from the repository's test run: no source condition, no saved login
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          XDG_CONFIG_HOME: path.join(dir, 'config'),
          NVCF_URL: system.url,
          NVCF_TOKEN: 'dev-token-a',
        },
      });
    expect((await nvcf('--version')).stdout).toBe(`${version('cli')}\n`);
    const clusters = JSON.parse((await nvcf('clusters', '-o', 'json')).stdout) as { id: string }[];
    expect(clusters.map((c) => c.id).sort()).toEqual(system.clusters.map((c) => c.id).sort());
    expect((await nvcf('completion', 'bash')).stdout).toContain('complete -o default -F _nvcf nvcf');
  }, 240_000);
});

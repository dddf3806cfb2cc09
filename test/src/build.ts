import { withDirLock } from '@nvcf/lifecycle';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOCK = path.join(ROOT, '.cache', 'build.lock');

export class BuildFailed extends Error {
  override name = 'BuildFailed';
}

const withLock = <T>(fn: () => Promise<T>) => withDirLock(LOCK, fn);

/**
 * `npm run build`, as the image's build stage runs it: tsc -b is incremental (build info in each
 * dist/), so a run after an earlier one only recompiles what changed. Resolves with its duration.
 */
export function buildDist(): Promise<number> {
  return withLock(
    () =>
      new Promise<number>((resolve, reject) => {
        const t = performance.now();
        const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.once('error', (err) =>
          reject(new BuildFailed(`cannot run npm run build: ${err.message}`, { cause: err })),
        );
        child.once('close', (code) =>
          code === 0
            ? resolve(Math.round(performance.now() - t))
            : reject(new BuildFailed(`npm run build exited with ${code}:\n${out.slice(-8000)}`)),
        );
      }),
  );
}

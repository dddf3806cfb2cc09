import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@nvcf/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOCK = path.join(ROOT, '.cache', 'build.lock');

export class BuildFailed extends Error {
  override name = 'BuildFailed';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** One builder at a time: jest workers (and a developer's `npm run build`) write the same dist/ folders. */
async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  await waitUntil(
    () => {
      try {
        fs.mkdirSync(LOCK);
        fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
        return true;
      } catch {
        const holder = Number(fs.readFileSync(path.join(LOCK, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
        if (holder && !alive(holder)) fs.rmSync(LOCK, { recursive: true, force: true }); // left by a killed run
        return false;
      }
    },
    { timeoutMs: 240_000, intervalMs: 200, what: `the build lock ${LOCK}` },
  );
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

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

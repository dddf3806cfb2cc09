import fs from 'node:fs';
import path from 'node:path';

export class LockTimeout extends Error {
  override name = 'LockTimeout';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Runs `fn` holding a lock across processes (jest workers, `npm start` beside `npm run build`):
 * a directory made atomically, with the holder's pid in it. A lock left by a killed process (its
 * pid gone, or never written after 5 s) is taken over; waiting longer than `timeoutMs` throws.
 */
export async function withDirLock<T>(lock: string, fn: () => Promise<T>, timeoutMs = 300_000): Promise<T> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder = 0;
      try {
        holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        /* being created or released */
      }
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if ((holder && !alive(holder)) || (!holder && age > 5000)) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new LockTimeout(`process ${holder} has held ${lock} for too long`);
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Child-process helpers: foreground build commands, detached daemons, stopping by pid. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { ServiceProvisionError, ServiceStartError } from './errors.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function log(msg: string): void {
  process.stderr.write(`[services] ${msg}\n`);
}

/**
 * Runs a command to completion, forwarding its output to our stderr.
 * Rejects with ServiceProvisionError (with the output tail) on failure.
 */
export function runCommand(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    let tail = '';
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (buf: Buffer) => {
      // eslint-disable-next-line no-control-regex -- ESC is what it strips: mvn -q still emits colour resets
      const text = buf.toString().replace(/\x1b\[[0-9;]*m/g, '');
      if (text) process.stderr.write(text);
      tail = (tail + text).slice(-4000);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (err) =>
      reject(new ServiceProvisionError(`cannot run ${cmd}: ${err.message}`, { cause: err })),
    );
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      reject(new ServiceProvisionError(`${cmd} ${args.join(' ')} failed (${how})\n${tail}`));
    });
  });
}

/**
 * Starts a long-running process in its own process group, detached from us,
 * with stdout/stderr appended to `logFile`. Returns its pid.
 */
export function spawnDetached(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string },
): number {
  const fd = fs.openSync(opts.logFile, 'a');
  try {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    child.on('error', () => {}); // reported below via missing pid / liveness checks
    if (child.pid === undefined) throw new ServiceStartError(`failed to spawn ${cmd}`);
    child.unref();
    return child.pid;
  } finally {
    fs.closeSync(fd);
  }
}

/** True when `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no procfs: trust kill(0)
  }
}

/** The command line of `pid` as one space-joined string ('' when unknown). */
export function cmdlineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig); // whole process group (we started it as group leader)
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** SIGTERM, wait up to `graceMs`, then SIGKILL. Resolves true when the process is gone. */
export async function stopProcess(pid: number, graceMs = 20_000): Promise<boolean> {
  if (!isAlive(pid)) return true;
  signal(pid, 'SIGTERM');
  if (await waitGone(pid, graceMs)) return true;
  signal(pid, 'SIGKILL');
  return waitGone(pid, 5_000);
}

/** Last `n` lines of a text file ('' when missing). */
export function tailFile(file: string, n = 50): string {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * Polls `check` every `intervalMs` until it returns true ('ready'), `exited()`
 * returns true ('exited'), or `timeoutMs` passes ('timeout').
 */
export async function waitUntil(
  check: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; exited?: () => boolean },
): Promise<'ready' | 'exited' | 'timeout'> {
  const end = Date.now() + opts.timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return 'ready';
    if (opts.exited?.()) return 'exited';
    await sleep(opts.intervalMs ?? 500);
  }
  return 'timeout';
}

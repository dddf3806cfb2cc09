import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { freePort } from '@nvcf/local/topology';

export { freePort };

/** Resident memory of a process and its descendants (tsx and CLIs run node as a child). */
export function treeRssMb(root: number): number {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='])
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of rows)
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
  }
  return rows.filter(([pid]) => tree.has(pid)).reduce((sum, [, , rss]) => sum + rss / 1024, 0);
}

export interface Started {
  child: ChildProcess;
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * Starts a command in its own process, pinned to `cores` when given (taskset; children inherit
 * the affinity), stderr passed through so a crash is visible.
 */
export function spawnProcess(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; cores?: string } = {},
): Started {
  const [file, argv] = opts.cores ? ['taskset', ['-c', opts.cores, cmd, ...args]] : [cmd, args];
  const child = spawn(file, argv, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.resume();
  return {
    child,
    rssMb: () => treeRssMb(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        // taskset execs the command, so the signal reaches it; tsx forwards it to its node child
        child.kill('SIGTERM');
        // a profiled process writes its profile only when it exits by itself: give it the time
        setTimeout(() => child.kill('SIGKILL'), profileArgs().length ? 120_000 : 10_000).unref();
      }),
  };
}

/** Resolves with the first match of `pattern` on stdout; rejects if the process exits first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(pattern);
      if (m) {
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
        resolve(m);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`${what} exited (${code}) before it was ready: ${out.slice(-500)}`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** BENCH_PROFILE_DIR: the node flags that make a process under test write a V8 CPU profile there when it stops. */
export const profileArgs = (): string[] => {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
};

/** Runs a script under tsx in its own process; resolves once `ready` matches its stdout. */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  cores?: string,
): Promise<Started & { match: RegExpMatchArray }> {
  const profile = profileArgs();
  const p = profile.length
    ? spawnProcess('node', [...profile, '--conditions=source', '--import', 'tsx', script], {
        env,
        cores,
      })
    : spawnProcess('node_modules/.bin/tsx', ['--conditions=source', script], { env, cores });
  try {
    return { ...p, match: await waitForLine(p.child, ready, script) };
  } catch (err) {
    await p.stop();
    throw err;
  }
}

/** Starts `npm start`'s entrypoint in its own process. */
export async function startControlPlane(env: Record<string, string>): Promise<Started & { url: string }> {
  const port = await freePort();
  // one tenant drives all the load (no peer rate-limits); metrics on any free loopback port
  const p = await startProcess(
    'deploy/local/src/main.ts',
    {
      GATEWAY_OPERATIONS_PER_SECOND: '0',
      GATEWAY_SUBSCRIPTIONS_PER_SECOND: '0',
      METRICS_PORT: '0',
      ...env,
      PORT: String(port),
      LOG_LEVEL: 'error',
    },
    /Press Ctrl-C/,
  );
  return { ...p, url: `http://127.0.0.1:${port}/graphql` };
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** The middle value; with an even count, the mean of the two middle ones. NaN for none. */
export function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export async function gql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

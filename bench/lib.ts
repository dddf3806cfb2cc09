import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const freePort = () => new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as any).port; s.close(() => resolve(p)); }); });

/** Starts `npm start`'s entrypoint in its own process (the gateway must not share a core with the load). */
export async function startControlPlane(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; rssMb(): number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('node_modules/.bin/tsx', ['deploy/local/src/main.ts'], { env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; if (out.includes('Press Ctrl-C')) resolve(); });
    child.once('exit', (code) => reject(new Error(`control plane exited with ${code}: ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/graphql`, child,
    // tsx runs node as a child: sum the process tree
    rssMb: () => execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number))
      .filter(([pid, ppid]) => pid === child.pid || ppid === child.pid).reduce((sum, [, , rss]) => sum + rss! / 1024, 0),
    stop: () => new Promise((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); }),
  };
}

export const percentile = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN; };

export async function gql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' }, body: JSON.stringify({ query, variables }) });
  const body = (await r.json()) as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

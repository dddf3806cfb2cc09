/**
 * test:cluster global setup: the 3-node NATS cluster and Cassandra ring (started unless running), their
 * env copied into process.env for the workers. Jest loads this as CommonJS: the ESM service scripts
 * run in a child under tsx.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

class ClusterSetupFailed extends Error {
  override name = 'ClusterSetupFailed';
}

export function runClusterScript(rootDir: string, args: string[]): Promise<string> {
  const tsx = path.join(rootDir, 'node_modules', '.bin', 'tsx');
  const script = path.join(rootDir, 'test', 'services', 'jest-cluster.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['--conditions=source', script, ...args], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', (err) => reject(new ClusterSetupFailed(`cannot run ${tsx}: ${err.message}`, { cause: err })));
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new ClusterSetupFailed(`${script} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

export type ClusterGlobal = typeof globalThis & { __nvcfClusterDown?: () => Promise<void> };

export default async function globalSetup(globalConfig: { rootDir: string }): Promise<void> {
  const env = JSON.parse(await runClusterScript(globalConfig.rootDir, ['up', String(process.pid)])) as Record<
    string,
    string
  >;
  Object.assign(process.env, env);
  (globalThis as ClusterGlobal).__nvcfClusterDown = async () => {
    await runClusterScript(globalConfig.rootDir, ['down', String(process.pid)]);
  };
}

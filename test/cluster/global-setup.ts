/**
 * test:cluster global setup: the 3-node NATS cluster and Cassandra ring (started unless running), their
 * env copied into process.env for the workers. Jest loads this as CommonJS: the ESM service scripts
 * run in a child under tsx.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ServicesGlobal } from '../services/jest-global-setup.js';

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

export default async function globalSetup(globalConfig: { rootDir: string }): Promise<void> {
  const env = JSON.parse(await runClusterScript(globalConfig.rootDir, ['up', String(process.pid)])) as Record<
    string,
    string
  >;
  Object.assign(process.env, env);
  // the teardown is npm test's (test/services/jest-global-teardown.ts): it calls this, then watches the exit
  (globalThis as ServicesGlobal).__nvcfServicesDown = async () => {
    await runClusterScript(globalConfig.rootDir, ['down', String(process.pid)]);
  };
}

/**
 * Jest global setup: real NATS and Cassandra for the run (reused when already running), their
 * env copied into process.env so that every worker inherits it. NVCF_TEST_BACKENDS=memory skips it.
 *
 * Jest loads this file as CommonJS, so the ESM service scripts run in a child under tsx.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

class ServicesSetupFailed extends Error {
  override name = 'ServicesSetupFailed';
}

/** Runs test/services/jest-services.ts with tsx; resolves with its stdout. */
function runServicesScript(rootDir: string, args: string[]): Promise<string> {
  const tsx = path.join(rootDir, 'node_modules', '.bin', 'tsx');
  const script = path.join(rootDir, 'test', 'services', 'jest-services.ts');
  return new Promise((resolve, reject) => {
    // progress goes straight to our stderr: a first run builds nats-server and fetches Cassandra
    const child = spawn(tsx, ['--conditions=source', script, ...args], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', (err) => reject(new ServicesSetupFailed(`cannot run ${tsx}: ${err.message}`, { cause: err })));
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new ServicesSetupFailed(`${script} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

export default async function globalSetup(globalConfig: { rootDir: string }): Promise<void> {
  if (process.env.NVCF_TEST_BACKENDS === 'memory') return;
  const out = await runServicesScript(globalConfig.rootDir, ['up', String(process.pid)]);
  const env = JSON.parse(out) as Record<string, string>;
  Object.assign(process.env, env);
  // jest runs the teardown in this process; a global is how the two share state (see jest docs)
  (globalThis as ServicesGlobal).__nvcfServicesDown = async () => {
    await runServicesScript(globalConfig.rootDir, ['down', String(process.pid)]);
  };
}

export type ServicesGlobal = typeof globalThis & { __nvcfServicesDown?: () => Promise<void> };

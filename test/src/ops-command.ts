import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they came */
  out: string;
}

/**
 * Runs an ops command (`ops/src/<name>-main.ts`) the way `npm run <name> -- …` does, from the
 * repository root; resolves with its exit code and output.
 */
export function runOpsCommand(
  name: 'streams' | 'preflight' | 'probe' | 'backup' | 'restore',
  args: string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  const main = fileURLToPath(new URL(`../../ops/src/${name}-main.ts`, import.meta.url));
  const root = fileURLToPath(new URL('../..', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const r: CommandResult = { code: null, stdout: '', stderr: '', out: '' };
    child.stdout.on('data', (d: Buffer) => {
      r.stdout += d.toString();
      r.out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      r.stderr += d.toString();
      r.out += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ ...r, code }));
  });
}

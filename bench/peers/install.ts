import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Installs a peer (bench/peers/<name>) from its lockfile the first time (the registry is the only source). */
export function ensurePeer(name: string) {
  const dir = `bench/peers/${name}`;
  if (existsSync(`${dir}/node_modules`)) return;
  console.error(`installing bench peer ${name} (npm ci)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--workspaces=false'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

#!/usr/bin/env node
// `nvcf`: the built CLI (dist/, from `npm run build`) when it is current; in a source checkout
// without it, or whose sources changed since the build, or with NVCF_CLI_SOURCE=1, the
// TypeScript sources through tsx. Installed from the registry it has no sources (nor tsx): always
// dist/. Plain JavaScript: it runs before anything is compiled.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('../dist/main.js');

/** Newest modification time of the .ts files under a directory (0 when there is none). */
const newestSource = (dir) => {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (f.endsWith('.ts')) newest = Math.max(newest, statSync(`${dir}/${f}`).mtimeMs);
  return newest;
};
/** When a package was last built (tsc -b touches its build info on every build that changed something). */
const builtAt = (pkg) =>
  existsSync(`${pkg}/dist/.tsbuildinfo`) ? statSync(`${pkg}/dist/.tsbuildinfo`).mtimeMs : Infinity;

// in the repository the client builds with it
const current = () =>
  existsSync(dist) && [here('..'), here('../../client')].every((pkg) => newestSource(`${pkg}/src`) <= builtAt(pkg));
const installed = !existsSync(here('../src'));

if (installed || (!process.env.NVCF_CLI_SOURCE && current())) {
  await import(new URL('../dist/main.js', import.meta.url).href);
} else {
  // resolved from here, not from the caller's directory, which need not see tsx
  const tsx = import.meta.resolve('tsx');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', tsx, here('../src/main.ts'), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  // Ctrl-C reaches the child too (same process group): it stops cleanly; this process only waits
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

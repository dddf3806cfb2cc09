/**
 * Debian's Chromium for the browser tests (playwright-core drives it; Playwright's own browser
 * downloads are never used): installed with apt-get on first use, then found at /usr/bin/chromium.
 * CI installs it up front (ci-prereqs.sh); a developer machine gets it from the first browser test.
 *
 *   node --conditions=source --import tsx test/services/chromium.ts     installs it unless present
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceProvisionError } from './errors.js';
import { log, runCommand } from './process.js';
import { servicePaths, withLock, type ServicePaths } from './state.js';

export const CHROMIUM = '/usr/bin/chromium';

/** `Chromium 156.0.8078.114 …`, or undefined when the binary is missing or does not start. */
export function chromiumVersion(bin = CHROMIUM): Promise<string | undefined> {
  if (!fs.existsSync(bin)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: 20_000 }, (err, stdout) => resolve(err ? undefined : stdout.trim()));
  });
}

/**
 * Makes sure /usr/bin/chromium runs, installing Debian's `chromium` package when it does not
 * (as root, else through sudo). Holds a lock of its own: two test files never run apt at once.
 */
export async function ensureChromium(
  p: ServicePaths = servicePaths(),
): Promise<{ bin: string; version: string; installed: boolean; ms: number }> {
  const t0 = Date.now();
  const present = await chromiumVersion();
  if (present) return { bin: CHROMIUM, version: present, installed: false, ms: Date.now() - t0 };
  fs.mkdirSync(p.servicesDir, { recursive: true });
  return withLock(
    { ...p, lockFile: path.join(p.servicesDir, 'chromium-install.lock') },
    async () => {
      const again = await chromiumVersion();
      if (again) return { bin: CHROMIUM, version: again, installed: false, ms: Date.now() - t0 };
      const root = process.getuid?.() === 0;
      const apt = (args: string[]) =>
        root
          ? runCommand('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
          : runCommand('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]);
      log(
        `installing Debian's chromium with apt-get${root ? '' : ' (sudo)'} for the browser tests (first run only)...`,
      );
      await apt(['update', '-q']);
      await apt(['install', '-y', '-q', '--no-install-recommends', 'chromium']);
      const version = await chromiumVersion();
      if (!version) throw new ServiceProvisionError(`apt-get installed chromium but ${CHROMIUM} --version fails`);
      const ms = Date.now() - t0;
      log(`${version} installed in ${(ms / 1000).toFixed(1)}s`);
      return { bin: CHROMIUM, version, installed: true, ms };
    },
    900_000,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  ensureChromium().then(
    (r) => log(`${r.version} at ${r.bin}`),
    (err: Error) => {
      log(err.message);
      process.exit(1);
    },
  );
}

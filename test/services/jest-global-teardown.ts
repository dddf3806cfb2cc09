/**
 * Jest global teardown: stops the services this run started, and nothing it merely reused.
 * The setup left the way to do that on a global (jest loads these files as CommonJS, where
 * a relative import of a sibling .ts module does not resolve).
 *
 * On two cores jest runs every suite in this process, so a handle one suite leaks keeps the run
 * from exiting and CI waits until its own limit. A watchdog (unref'd: it never keeps the process
 * up itself) names what is still open and ends the run with jest's own exit code, so a leak is
 * reported where it can be fixed instead of hanging the run.
 */
import type { ServicesGlobal } from './jest-global-setup.js';

const WATCHDOG_MS = Number(process.env.NVCF_TEST_EXIT_WATCHDOG_MS ?? 20_000);

interface HandleLike {
  constructor?: { name?: string };
  pid?: number;
  spawnargs?: string[];
  localAddress?: string;
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
  fd?: number;
  address?: () => unknown;
}

function describeHandle(h: HandleLike): string {
  const kind = h.constructor?.name ?? typeof h;
  if (typeof h.pid === 'number') return `${kind} pid ${h.pid}: ${(h.spawnargs ?? []).join(' ').slice(0, 200)}`;
  if (h.remotePort !== undefined)
    return `${kind} ${h.localAddress}:${h.localPort} -> ${h.remoteAddress}:${h.remotePort}`;
  if (typeof h.address === 'function') {
    try {
      return `${kind} listening on ${JSON.stringify(h.address())}`;
    } catch {
      return kind;
    }
  }
  return h.fd !== undefined ? `${kind} fd ${h.fd}` : kind;
}

function reportAndExit(): void {
  const p = process as unknown as { _getActiveHandles?: () => HandleLike[] };
  const handles = (p._getActiveHandles?.() ?? []).filter(
    (h) => h !== process.stdin && h !== process.stdout && h !== process.stderr,
  );
  process.stderr.write(
    `\n[test] jest had not exited ${WATCHDOG_MS / 1000} s after its teardown; a suite leaked what follows ` +
      `(fix it there). Exiting with jest's result.\n` +
      `  resources: ${process.getActiveResourcesInfo().join(', ')}\n` +
      handles.map((h) => `  - ${describeHandle(h)}\n`).join(''),
  );
  // jest registered an 'exit' listener that sets a failing run's code; none set means it passed
  process.exit();
}

export default async function globalTeardown(): Promise<void> {
  await (globalThis as ServicesGlobal).__nvcfServicesDown?.();
  if (WATCHDOG_MS > 0) setTimeout(reportAndExit, WATCHDOG_MS).unref();
}

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
  for (const t of (globalThis as ServicesGlobal).__nvcfPendingTimers?.() ?? [])
    process.stderr.write(`  - a pending ${t.kind} of ${t.ms} ms, ${t.stack.replace(/^Error: /, '')}\n`);
  // jest registered an 'exit' listener that sets a failing run's code; none set means it passed
  process.exit();
}

const portOf = (url: string | undefined) => Number(/:(\d+)(?:[/,]|$)/.exec(url ?? '')?.[1] ?? 0);

/**
 * Every suite has ended, so a connection this process still holds to NATS or Cassandra was leaked
 * by one of them; once the services stop it turns into reconnect timers that name nothing. Named
 * now, while NATS can still say which client it is (the name each bus and test gives its connection).
 */
async function reportLeakedConnections(): Promise<void> {
  const nats = portOf(process.env.NATS_URL);
  const cassandra = portOf(process.env.CASSANDRA_CONTACT_POINTS);
  const p = process as unknown as { _getActiveHandles?: () => HandleLike[] };
  const open = (p._getActiveHandles?.() ?? []).filter(
    (h) => h.remotePort !== undefined && (h.remotePort === nats || h.remotePort === cassandra),
  );
  if (open.length === 0) return;
  let names = new Map<number, string>();
  if (process.env.NATS_MONITOR_URL && open.some((h) => h.remotePort === nats)) {
    const connz = (await fetch(`${process.env.NATS_MONITOR_URL}/connz?limit=4096`, {
      signal: AbortSignal.timeout(5000),
    })
      .then((r) => r.json())
      .catch(() => ({}))) as { connections?: { port: number; name?: string }[] };
    names = new Map((connz.connections ?? []).map((c) => [c.port, c.name ?? '(unnamed)']));
  }
  process.stderr.write(
    `\n[test] connections still open after every suite ended (a suite did not close them):\n` +
      open
        .map(
          (h) =>
            `  - ${h.remotePort === nats ? `NATS client "${names.get(h.localPort ?? 0) ?? '?'}"` : 'Cassandra client'} ` +
            `from port ${h.localPort}\n`,
        )
        .join(''),
  );
}

export default async function globalTeardown(): Promise<void> {
  await reportLeakedConnections().catch(() => {});
  await (globalThis as ServicesGlobal).__nvcfServicesDown?.();
  if (WATCHDOG_MS > 0) setTimeout(reportAndExit, WATCHDOG_MS).unref();
}

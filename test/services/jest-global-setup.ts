/**
 * Jest global setup: real NATS and Cassandra for the run (reused when already running), their
 * env copied into process.env so that every worker inherits it. NVCF_TEST_BACKENDS=memory skips it.
 *
 * Jest loads this file as CommonJS, so the ESM service scripts run in a child under tsx.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

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

export interface TracedTimer {
  kind: 'timeout' | 'interval';
  ms: number;
  stack: string;
}

/** Where a timer was made: V8 keeps the frames and formats them only when `stack` is read. */
type Made = { kind: TracedTimer['kind']; ms: number; where: Error };

/**
 * On two cores jest runs every suite in this process, and a timer a suite leaves behind (a client
 * reconnecting to a server its test stopped) keeps the run from exiting while naming nothing.
 * Every test context takes its timers from this realm's globals, so wrapping them here records
 * where each long timer (200 ms or more) and each interval was made; the teardown's watchdog
 * prints the ones still pending. `util.promisify(setTimeout)` keeps working (its custom form is
 * carried over); `node:timers/promises` is not wrapped.
 *
 * The frames are captured, not formatted: formatting (source maps included) is done only for
 * the few timers the watchdog prints. Formatting at every setTimeout cost 40 % of a busy e2e
 * suite's CPU (every Cassandra request and NATS request sets one), enough to starve its tests.
 */
function traceTimers(): void {
  const live = new Map<NodeJS.Timeout, Made>();
  // a timer cleared through a function captured before the wrap is still in `live`: Node marks it destroyed
  const destroyed = (t: NodeJS.Timeout) => !!(t as NodeJS.Timeout & { _destroyed?: boolean })._destroyed;
  let sinceSweep = 0;
  const made = (kind: Made['kind'], ms: number): Made => {
    // uncleared frames keep their receivers alive: a long run must not hold every system it ever made
    if (++sinceSweep >= 10_000) {
      sinceSweep = 0;
      for (const t of live.keys()) if (destroyed(t)) live.delete(t);
    }
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 30;
    const where = new Error('timer made here');
    Error.stackTraceLimit = limit;
    return { kind, ms, where };
  };
  const { setTimeout: st, setInterval: si, clearTimeout: ct, clearInterval: ci } = globalThis;
  const setTimeoutTraced = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const t: NodeJS.Timeout = st(
      (...a: unknown[]) => {
        live.delete(t);
        fn(...a);
      },
      ms,
      ...args,
    );
    if ((ms ?? 0) >= 200) live.set(t, made('timeout', ms ?? 0));
    return t;
  };
  Object.assign(setTimeoutTraced, { [promisify.custom]: (st as unknown as Record<symbol, unknown>)[promisify.custom] });
  const setIntervalTraced = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const t = si(fn, ms, ...args);
    live.set(t, made('interval', ms ?? 0));
    return t;
  };
  const clear = (t: NodeJS.Timeout | string | number | undefined) => {
    if (t && typeof t === 'object') live.delete(t);
  };
  globalThis.setTimeout = setTimeoutTraced as typeof globalThis.setTimeout;
  globalThis.setInterval = setIntervalTraced as typeof globalThis.setInterval;
  globalThis.clearTimeout = (t) => (clear(t), ct(t));
  globalThis.clearInterval = (t) => (clear(t), ci(t));
  const pending = (t: NodeJS.Timeout) => t.hasRef() && !destroyed(t);
  (globalThis as ServicesGlobal).__nvcfPendingTimers = () =>
    [...live].filter(([t]) => pending(t)).map(([, m]) => ({ kind: m.kind, ms: m.ms, stack: m.where.stack ?? '' }));
}

export default async function globalSetup(globalConfig: { rootDir: string }): Promise<void> {
  if (process.env.NVCF_TEST_TRACE_TIMERS !== '0') traceTimers();
  if (process.env.NVCF_TEST_BACKENDS === 'memory') return;
  const out = await runServicesScript(globalConfig.rootDir, ['up', String(process.pid)]);
  const env = JSON.parse(out) as Record<string, string>;
  Object.assign(process.env, env);
  // jest runs the teardown in this process; a global is how the two share state (see jest docs)
  (globalThis as ServicesGlobal).__nvcfServicesDown = async () => {
    await runServicesScript(globalConfig.rootDir, ['down', String(process.pid)]);
  };
}

export type ServicesGlobal = typeof globalThis & {
  __nvcfServicesDown?: () => Promise<void>;
  __nvcfPendingTimers?: () => TracedTimer[];
};

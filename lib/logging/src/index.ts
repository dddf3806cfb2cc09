import { createRequire } from 'node:module';
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger as Pino } from 'pino';
import { activeIds } from '@nvcf/telemetry';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
// one process-wide threshold and root logger, set by entrypoints (and the test setup); libraries only log
const KEY = Symbol.for('nvcf.logLevel');
const ROOT = Symbol.for('nvcf.logRoot');
const CTX = Symbol.for('nvcf.logContext');
const store = globalThis as unknown as Record<symbol, unknown>;

export const levels = Object.keys(order) as Level[];
export function setLogLevel(level: Level) {
  store[KEY] = level;
}
const current = () => (store[KEY] as Level | undefined) ?? 'info';
const enabled = (l: Level) => order[l] >= order[current()];

/** A thrown value that is not an Error, as a message: never throws (a circular object, a BigInt). */
function thrownText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v == null) return String(v);
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** Fields every line logged inside `run` carries (a request id, the tenant), across awaits. */
const scope = (store[CTX] ??= new AsyncLocalStorage<Record<string, unknown>>()) as AsyncLocalStorage<
  Record<string, unknown>
>;
export function withLogContext<T>(fields: Record<string, unknown>, run: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, run);
}

export type LogFormat = 'json' | 'pretty';
export const logFormats: LogFormat[] = ['json', 'pretty'];
const FORMAT = Symbol.for('nvcf.logFormat');
/** `json` (one object a line) or `pretty` (for a person); default: pretty when stderr is a terminal. */
export function setLogFormat(format: LogFormat | undefined) {
  store[FORMAT] = format;
  store[ROOT] = undefined;
  store[GEN] = ((store[GEN] as number | undefined) ?? 0) + 1;
}
const GEN = Symbol.for('nvcf.logGeneration');

function root(): Pino {
  let r = store[ROOT] as Pino | undefined;
  if (r) return r;
  const format = (store[FORMAT] as LogFormat | undefined) ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const opts = {
    level: 'debug', // the threshold is ours (setLogLevel), checked before pino is called
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    // trace and span ids of the active span, and the request's fields, on every line
    mixin: () => ({ ...scope.getStore(), ...activeIds() }),
  };
  if (format === 'pretty') {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (
      o: Record<string, unknown>,
    ) => NodeJS.WritableStream;
    r = pino(
      opts,
      pretty({
        destination: 2,
        sync: true,
        colorize: !!process.stderr.isTTY,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    );
  } else {
    r = pino(opts, pino.destination({ dest: 2, sync: true }));
  }
  store[ROOT] = r;
  return r;
}

export interface Logger {
  debug(msg: string, err?: unknown): void;
  info(msg: string, err?: unknown): void;
  warn(msg: string, err?: unknown): void;
  error(msg: string, err?: unknown): void;
  /** a structured line: `fields` are top-level keys next to `msg` */
  log(level: Exclude<Level, 'silent'>, fields: Record<string, unknown>, msg: string): void;
}

/** A logger for one component: JSON lines on stderr (`logger` names it), human-readable on a terminal. */
export function createLogger(name: string): Logger {
  let child: Pino | undefined;
  let gen = -1;
  const get = () => {
    const now = (store[GEN] as number | undefined) ?? 0;
    if (!child || gen !== now) {
      child = root().child({ logger: name });
      gen = now;
    }
    return child;
  };
  const at = (level: Exclude<Level, 'silent'>) => (msg: string, err?: unknown) => {
    if (!enabled(level)) return;
    if (err === undefined) get()[level](msg);
    else get()[level]({ err: err instanceof Error ? err : { message: thrownText(err) } }, msg);
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    log: (level, fields, msg) => {
      if (enabled(level)) get()[level](fields, msg);
    },
  };
}

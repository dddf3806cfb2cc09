export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
// one process-wide threshold, set by entrypoints (and the test setup); libraries only log
const KEY = Symbol.for('nvcf.logLevel');
const store = globalThis as unknown as Record<symbol, Level | undefined>;

export const levels = Object.keys(order) as Level[];
export function setLogLevel(level: Level) { store[KEY] = level; }
const enabled = (l: Level) => order[l] >= order[store[KEY] ?? 'info'];

export interface Logger {
  debug(msg: string, err?: unknown): void;
  info(msg: string, err?: unknown): void;
  warn(msg: string, err?: unknown): void;
  error(msg: string, err?: unknown): void;
}

export function createLogger(name: string): Logger {
  const at = (level: Level) => (msg: string, err?: unknown) => {
    if (!enabled(level)) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase()} ${name}: ${msg}`;
    if (err === undefined) console.error(line); else console.error(line, err);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

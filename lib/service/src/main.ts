import { ConfigError } from '@nvcf/config';
import { createLogger, setLogFormat, setLogLevel, type Level, type LogFormat } from '@nvcf/logging';
import { startTelemetry, type Telemetry } from '@nvcf/telemetry';

export interface Started {
  /** what the log line announcing the start says (addresses) */
  describe: string;
  /** stop taking work, finish what is in flight, close; called once, on SIGTERM or SIGINT */
  drain(): Promise<void>;
}

/**
 * The whole of a service's main.ts: read the configuration (a ConfigError is one line,
 * `configuration error: …`, exit 1), start, and on SIGTERM or SIGINT drain and exit 0. A second
 * signal, or a drain past `graceMs` plus a margin, exits at once.
 */
export function runMain<C>(
  name: string,
  read: () => C,
  start: (config: C) => Promise<Started>,
  opts: { graceMs?: (config: C) => number } = {},
) {
  const log = createLogger(name);
  let config: C;
  try {
    config = read();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // logging and tracing from the configuration read once, before anything else logs or traces
  const c = config as { logLevel?: Level; logFormat?: LogFormat };
  if (c.logLevel) setLogLevel(c.logLevel);
  setLogFormat(c.logFormat);
  let telemetry: Telemetry | undefined;
  const flush = async () => {
    await telemetry?.shutdown();
  };
  let running: Started | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const grace = opts.graceMs?.(config) ?? 30_000;
    log.info(`${signal}: draining (grace ${grace} ms)`);
    const hard = setTimeout(() => {
      log.error('drain did not finish in time; exiting');
      process.exit(1);
    }, grace + 5_000);
    hard.unref();
    void (running ? running.drain() : Promise.resolve()).then(
      () => {
        log.info('stopped');
        void flush().finally(() => process.exit(0));
      },
      (err: unknown) => {
        log.error('drain failed', err);
        void flush().finally(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  startTelemetry(name)
    .then((t) => {
      telemetry = t;
      return start(config);
    })
    .then(
      (s) => {
        running = s;
        log.info(`started: ${s.describe}${telemetry?.tracing ? ' (tracing on)' : ''}`);
        if (stopping)
          void s
            .drain()
            .then(flush)
            .then(() => process.exit(0));
      },
      (err: unknown) => {
        log.error('failed to start', err);
        process.exit(1);
      },
    );
}

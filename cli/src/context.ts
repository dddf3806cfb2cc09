import type { NvcfClient } from '@nvcf/client';
import { checkUrl, resolveConfig, type ResolvedConfig } from './config.js';
import { EXIT, ExplainedError, UsageError } from './errors.js';
import type { Io, OutputStream } from './io.js';
import { createColors, renderData, type Colors } from './output.js';
import type { OutputFormat } from './formats.js';

/** The options every command inherits from `nvcf` itself. */
export interface GlobalOptions {
  url?: string;
  token?: string;
  /** false with --no-color */
  color?: boolean;
  /** false with --no-tty: plain lines even on a terminal */
  tty?: boolean;
}

/** What a command runs with: its io, how to print, and a client once it needs one. */
export interface Ctx {
  io: Io;
  /** colours for stdout, off for NO_COLOR, --no-color and anything but a terminal */
  colors: Colors;
  /** colours for stderr, by the same rules */
  errColors: Colors;
  /** stdout is a terminal that may be redrawn (live views); false when piped or with --no-tty */
  live: boolean;
  /** aborted on Ctrl-C */
  signal: AbortSignal;
  out(text: string): void;
  err(text: string): void;
  /** json/yaml: the data as one document; table: what `table()` renders; id: `ids()`, else the data's `id` (or each item's) */
  print(format: OutputFormat, data: unknown, table: () => string, ids?: () => string[]): void;
  config(): Promise<ResolvedConfig>;
  client(): Promise<NvcfClient>;
}

const dumb = (env: Io['env']) => env.TERM === 'dumb';

const idOf = (x: unknown): string[] =>
  x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string' ? [(x as { id: string }).id] : [];
const idsOf = (data: unknown): string[] => (Array.isArray(data) ? data.flatMap(idOf) : idOf(data));

// https://no-color.org: present and not empty turns colour off; FORCE_COLOR turns it on for pipes (CI logs)
function colorsFor(stream: OutputStream, env: Io['env'], flag: boolean | undefined): Colors {
  if (flag === false || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return createColors(false);
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return createColors(true);
  return createColors(!!stream.isTTY && !dumb(env));
}

export function createContext(io: Io, globals: GlobalOptions): Ctx {
  const signal = io.signal ?? new AbortController().signal;
  let config: Promise<ResolvedConfig> | undefined;
  let client: Promise<NvcfClient> | undefined;
  const ctx: Ctx = {
    io,
    colors: colorsFor(io.stdout, io.env, globals.color),
    errColors: colorsFor(io.stderr, io.env, globals.color),
    live: globals.tty !== false && !!io.stdout.isTTY && !dumb(io.env),
    signal,
    out: (text) => {
      io.stdout.write(text);
    },
    err: (text) => {
      io.stderr.write(text);
    },
    print: (format, data, table, ids) => {
      if (format === 'id') io.stdout.write((ids?.() ?? idsOf(data)).map((id) => `${id}\n`).join(''));
      else io.stdout.write(format === 'table' ? table() : renderData(format, data));
    },
    config: () => (config ??= resolveConfig(globals, io.env)),
    client: () =>
      (client ??= (async () => {
        const cfg = await ctx.config();
        if (!cfg.url)
          throw new UsageError(
            'no gateway URL',
            'pass --url URL, set NVCF_URL, or run `nvcf login --url URL --token TOKEN`',
          );
        if (!cfg.token)
          throw new UsageError(
            'no token',
            'pass --token TOKEN, set NVCF_TOKEN, or run `nvcf login --url URL --token TOKEN`',
          );
        const { createClient } = await import('@nvcf/client');
        return createClient({ url: checkUrl(cfg.url.value), token: cfg.token.value });
      })()),
  };
  return ctx;
}

/** The object a query returned, or NOT_FOUND as the API says it for mutations. */
export function found<T>(value: T | null | undefined, what: string, id: string): T {
  if (value === null || value === undefined)
    throw new ExplainedError('NOT_FOUND', `no ${what} ${id} for this tenant`, EXIT.api);
  return value;
}

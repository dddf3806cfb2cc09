/** What a stream must offer to be written to: the process's streams, or a test's. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** terminal size: the live view fits its frame to it */
  columns?: number;
  rows?: number;
}

/**
 * Everything a command touches outside itself, so that `run(argv, io)` works in-process in a
 * test exactly as it does from the shell.
 */
export interface Io {
  stdout: OutputStream;
  stderr: OutputStream;
  /** read by `login --token-stdin` */
  stdin?: AsyncIterable<string | Uint8Array>;
  env: Readonly<Record<string, string | undefined>>;
  /** relative --values and -f paths resolve against it */
  cwd: string;
  /** aborted on Ctrl-C: watches stop, and the command returns 130 */
  signal?: AbortSignal;
}

/** The process's own io: what `nvcf` runs with. */
export const processIo = (signal?: AbortSignal): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal,
});

export interface MemoryIo extends Io {
  /** everything written to stdout so far */
  readonly out: string;
  /** everything written to stderr so far */
  readonly err: string;
}

/**
 * An io that keeps what is written, for embedding `run()` (and for tests): a terminal of the
 * given size when `tty` is set, else a pipe.
 */
export function memoryIo(
  opts: {
    env?: Io['env'];
    cwd?: string;
    tty?: boolean;
    columns?: number;
    rows?: number;
    signal?: AbortSignal;
    stdin?: string;
  } = {},
): MemoryIo {
  const stdin = opts.stdin;
  let out = '';
  let err = '';
  const tty = opts.tty ? { isTTY: true, columns: opts.columns ?? 100, rows: opts.rows ?? 30 } : {};
  return {
    stdout: {
      write: (s: string) => {
        out += s;
        return true;
      },
      ...tty,
    },
    stderr: {
      write: (s: string) => {
        err += s;
        return true;
      },
      ...tty,
    },
    ...(stdin !== undefined
      ? {
          stdin: (async function* () {
            yield stdin;
          })(),
        }
      : {}),
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
    signal: opts.signal,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
  };
}

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryIo, run } from '@nvcf/cli';

/** The repository's `nvcf` launcher (cli/bin/nvcf.js). */
export const nvcfBin = fileURLToPath(new URL('../../cli/bin/nvcf.js', import.meta.url));

export interface CliResult {
  code: number;
  out: string;
  err: string;
  /** stdout as one JSON document */
  json<T = unknown>(): T;
  /** stdout as JSON lines (-o json with --watch or `watch`) */
  lines<T = unknown>(): T[];
}

const result = (code: number, out: string, err: string): CliResult => ({
  code,
  out,
  err,
  json: <T>() => JSON.parse(out) as T,
  lines: <T>() =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as T),
});

/**
 * Runs `nvcf` in-process against a gateway, with its own configuration directory. `running`
 * exposes what a command wrote so far, for commands that do not end by themselves.
 */
export function cliAgainst(url: string, token = 'dev-token-a') {
  const configHome = mkdtempSync(join(tmpdir(), 'nvcf-cli-'));
  const env = { NVCF_URL: url, NVCF_TOKEN: token, XDG_CONFIG_HOME: configHome };
  const start = (
    argv: string[],
    opts: {
      env?: Record<string, string | undefined>;
      cwd?: string;
      signal?: AbortSignal;
      tty?: boolean;
      stdin?: string;
    } = {},
  ) => {
    const io = memoryIo({
      env: { ...env, ...opts.env },
      cwd: opts.cwd,
      signal: opts.signal,
      tty: opts.tty,
      stdin: opts.stdin,
    });
    const done = run(argv, io).then((code) => result(code, io.out, io.err));
    return { io, done };
  };
  return {
    env,
    configHome,
    nvcf: (argv: string[], opts?: Parameters<typeof start>[1]) => start(argv, opts).done,
    start,
  };
}

/** Runs the real launcher in a child process (from the sources, as a checkout without a build does). */
export function runBin(argv: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [nvcfBin, ...argv],
      { env: { ...process.env, NVCF_CLI_SOURCE: '1', NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve(result(code, stdout, stderr));
      },
    );
  });
}

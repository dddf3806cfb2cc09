import type { NvcfError } from '@nvcf/client';

/** The exit codes of every command (docs/cli.md, `nvcf --help`). */
export const EXIT = {
  ok: 0,
  /** the rollout ended FAILED, or its deadline passed */
  rolloutFailed: 1,
  /** `tasks watch`: the task ended in a terminal state other than COMPLETED */
  taskNotCompleted: 1,
  /** a bad command line, a missing configuration, an unreadable or invalid input file */
  usage: 2,
  /** the API refused the request (its registry code is printed), or another failure */
  api: 3,
  /** the gateway could not be reached or did not answer in time (UNAVAILABLE, TIMEOUT): retry later */
  unavailable: 4,
  /** interrupted (Ctrl-C) */
  interrupted: 130,
} as const;

/** The command line or an input file is wrong: exit 2, nothing was sent. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A refusal the CLI explains better than the bare API error (a CONFLICT on update, say). */
export class ExplainedError extends Error {
  override name = 'ExplainedError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

// duck-typed so that a usage error does not load the client (start-up time)
export const isNvcfError = (e: unknown): e is NvcfError =>
  e instanceof Error && e.name === 'NvcfError' && typeof (e as { code?: unknown }).code === 'string';

const UNAVAILABLE = new Set(['UNAVAILABLE', 'TIMEOUT']);

/** What to do about a registry code, where the message alone does not say. */
function hintFor(e: NvcfError): string | undefined {
  switch (e.code) {
    case 'UNAUTHENTICATED':
      return 'the gateway refused the token: run `nvcf login --url URL --token TOKEN`, or set NVCF_TOKEN';
    case 'UNAVAILABLE':
      return 'check --url / NVCF_URL, or retry later';
    case 'TIMEOUT':
      return 'a mutation may still complete: read the object again before retrying';
    case 'RATE_LIMITED':
      return `retry in ${e.retryAfterSeconds ?? 1} s`;
    case 'CURSOR_EXPIRED':
      return 'the cursor is older than the stream retains: watch without --after (add --snapshot for the current state)';
    case 'CURSOR_INVALID':
      return 'pass a cursor this tenant received from `nvcf watch -o json`';
    case 'SCHEMA_CHANGED':
      return 'the gateway now serves a schema this CLI does not match: use the CLI of its release, then watch again with --after the last cursor';
    case 'PERSISTED_QUERY_REQUIRED':
      return 'the gateway runs only the documents of its released clients: use the CLI of the same release';
    default:
      return undefined;
  }
}

export const exitCodeOf = (err: unknown): number => {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof ExplainedError) return err.exitCode;
  if (isNvcfError(err)) return UNAVAILABLE.has(err.code) ? EXIT.unavailable : EXIT.api;
  return EXIT.api;
};

/** `error: CODE: message` (and a `hint:` line) on stderr; returns the exit code. */
export function formatError(err: unknown): string {
  let line: string;
  let hint: string | undefined;
  if (err instanceof UsageError) {
    line = `error: ${err.message}`;
    hint = err.hint;
  } else if (err instanceof ExplainedError) {
    line = `error: ${err.code}: ${err.message}`;
    hint = err.hint;
  } else if (isNvcfError(err)) {
    line = `error: ${err.code}: ${err.message}`;
    const more = err.errors.slice(1).map((x) => `  also: ${x.extensions?.code ?? 'ERROR'}: ${x.message}`);
    if (more.length) line += `\n${more.join('\n')}`;
    hint = hintFor(err);
  } else line = `error: INTERNAL: ${err instanceof Error ? err.message : String(err)}`;
  return hint ? `${line}\nhint: ${hint}\n` : `${line}\n`;
}

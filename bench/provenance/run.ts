// The provenance of one section of bench/results/latest.json: which command, on which commit and machine, under
// what load, produced it. Every bench entrypoint builds its sections' `run` here, so they all say the same things.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';

export interface Machine {
  cpu: string | null;
  cores: number | null;
  memory_gib: number | null;
}

export interface Run {
  /** `git rev-parse --short HEAD`, with `-dirty` when the code had uncommitted changes */
  commit: string | null;
  /** the command as typed, e.g. `npm run bench:fleet -- --single --sizes 10x1000` */
  command: string | null;
  started_at: string | null;
  duration_s: number | null;
  machine: Machine | null;
  node: string | null;
  load_avg_1m: number | null;
  /** only on a record reconstructed after the fact (null fields were not recorded then) */
  backfilled?: Backfilled;
}

export interface Backfilled {
  /** the commit that recorded the figures; they were measured on its tree before it was committed */
  recorded_in: string;
  /** the time the file stamped when the figures were written, or the recording commit's date */
  recorded_at: string;
  /** where each known field came from */
  note: string;
}

/** What the helper reads of the process; the entrypoints pass their own (tests pass made-up ones). */
export interface Invocation {
  argv: readonly string[];
  execArgv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

export const thisProcess = (): Invocation => ({
  argv: process.argv,
  execArgv: process.execArgv,
  env: process.env,
  cwd: process.cwd(),
});

const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/**
 * The command line as the user typed it: `npm run <script> -- <args>` when npm started this script
 * (npm_lifecycle_script names it), else node with its flags and the script.
 */
export function commandLine(inv: Invocation): string {
  const [, script = '', ...args] = inv.argv;
  const rel = path.relative(inv.cwd, script) || script;
  const event = inv.env.npm_lifecycle_event;
  // an npm script's children inherit its variables: only trust them when that script is this one
  const viaNpm = event && inv.env.npm_lifecycle_script?.split(/\s+/).includes(rel);
  const tail = args.length ? ` ${args.map(quote).join(' ')}` : '';
  if (viaNpm) return `npm run ${event}${args.length ? ` --${tail}` : ''}`;
  return ['node', ...inv.execArgv.map(quote), rel].join(' ') + tail;
}

// results and their report change during a run (and between runs that are merged): they are not the code measured
const NOT_CODE = [':(exclude)bench/results', ':(exclude)bench/RESULTS.md', ':(exclude)bench/ANALYSIS.md'];

const quiet: ['ignore', 'pipe', 'ignore'] = ['ignore', 'pipe', 'ignore'];

export function gitCommit(cwd: string): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', stdio: quiet }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ...NOT_CODE], {
      cwd,
      encoding: 'utf8',
      stdio: quiet,
    }).trim();
    return changed ? `${head}-dirty` : head;
  } catch {
    // not a git checkout (an unpacked copy): unknown, not invented
    return null;
  }
}

export function thisMachine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? null,
    cores: cpu.length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
  };
}

/** Takes what is known at the start (load, commit, machine); `finish()` adds the duration. */
export function startRun(inv: Invocation = thisProcess(), now = new Date()): { finish(at?: Date): Run } {
  const load = loadavg()[0];
  const commit = gitCommit(inv.cwd);
  const machine = thisMachine();
  return {
    finish: (at = new Date()): Run => ({
      commit,
      command: commandLine(inv),
      started_at: now.toISOString(),
      duration_s: Math.round((at.getTime() - now.getTime()) / 1000),
      machine,
      node: process.version,
      load_avg_1m: load === undefined ? null : Math.round(load * 100) / 100,
    }),
  };
}

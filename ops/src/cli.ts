/** What the ops command-line tools share: arguments, durations, usage errors, text tables. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** node:util's parseArgs, its refusals (an unknown flag, a missing value) as a UsageError: exit 2 with the usage */
export function parseCommand<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `50ms`, `60s`, `2m`, `1h` (a bare number is milliseconds) → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag} must be a duration like 50ms, 60s, 2m or 1h (got '${text}')`);
  const ms = Number(m[1]) * UNITS[m[2] ?? 'ms'];
  if (!Number.isFinite(ms)) throw new UsageError(`${flag} is out of range (got '${text}')`);
  return Math.round(ms);
}

/** A left-aligned text table; cells never wrap, so a long detail simply makes a long line. */
export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

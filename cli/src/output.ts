import Table from 'cli-table3';
import pc from 'picocolors';
import { yaml } from './yaml.js';
import { UsageError } from './errors.js';
import type { OutputFormat } from './formats.js';

export type Colors = ReturnType<typeof pc.createColors>;
export const createColors = (enabled: boolean): Colors => pc.createColors(enabled);

/** The format of a stream of items (--watch): ids are for a single result, not a stream. */
export function streamFormat(format: Exclude<OutputFormat, 'table'>): 'json' | 'yaml' {
  if (format === 'id')
    throw new UsageError(
      '-o id prints the ids of a result, not a stream of events',
      'leave out --watch (then follow with `nvcf rollout status ID --watch`), or use -o json',
    );
  return format;
}

/** One document: indented JSON, or YAML. */
export function renderData(format: 'json' | 'yaml', data: unknown): string {
  return format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : yaml().stringify(data, { lineWidth: 0 });
}

/**
 * One item of a stream (watches): a JSON object per line (jq, NDJSON), or a YAML document
 * per item, each opened by `---` so that a YAML stream parser reads them one by one.
 */
export function renderStreamItem(format: 'json' | 'yaml', data: unknown): string {
  return format === 'json' ? `${JSON.stringify(data)}\n` : `---\n${yaml().stringify(data, { lineWidth: 0 })}`;
}

export const toYaml = (data: unknown): string => yaml().stringify(data, { lineWidth: 0 });

// kubectl-style columns: no borders, two spaces between columns, so `awk` and `cut` read them
const PLAIN_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** A table with a header row; cells are plain strings (colour them before, if wanted). */
export function table(head: string[], rows: string[][], colors: Colors): string {
  const t = new Table({
    head: head.map((h) => colors.bold(h)),
    chars: PLAIN_CHARS,
    // colouring is ours (NO_COLOR, --no-color): cli-table3's own styles stay off
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  t.push(...rows);
  return `${t
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

/** `Key:  value` lines of one object, aligned; empty values left out. */
export function details(rows: [string, string | number | null | undefined][], colors: Colors): string {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
  const width = Math.max(0, ...shown.map(([k]) => k.length + 1));
  return shown.map(([k, v]) => `${colors.bold(`${k}:`.padEnd(width))}  ${v}`).join('\n') + '\n';
}

/** A block of YAML under a heading, indented, for a value inside a table view. */
export function block(title: string, value: unknown, colors: Colors): string {
  const body = value === null || value === undefined ? '(none)\n' : toYaml(value);
  return `${colors.bold(`${title}:`)}\n${body.replace(/^(?=.)/gm, '  ')}`;
}

/** A time to the second (`2026-11-30T19:00:01Z`): milliseconds are noise on a terminal. */
export const when = (iso: string | null | undefined): string => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : '');

/** A short id for dense views (the first 8 characters, as git does). */
export const short = (id: string | null | undefined): string => (id ? id.slice(0, 8) : '-');

/** A revision status, coloured by what it means for the person waiting on it. */
export function statusWord(status: string, colors: Colors): string {
  return status === 'APPLIED'
    ? colors.green(status)
    : status === 'FAILED'
      ? colors.red(status)
      : status === 'SUPERSEDED'
        ? colors.dim(status)
        : colors.yellow(status);
}

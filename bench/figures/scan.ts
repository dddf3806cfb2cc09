// Finds figures that read like benchmark results in Markdown (a number with a unit of throughput, time, memory or a
// ratio) and tells which are neither in the results files nor dated to the run they came from.

/** What a figure measures, from its unit; a results field counts for the units its name says. */
export type Unit = 'rate' | 'rps' | 'ms' | 's' | 'us' | 'mb' | 'ratio';

export interface Figure {
  file: string;
  line: number;
  /** the figure as written, e.g. `120 000/s` */
  text: string;
  value: number;
  /** the precision it was written with: 2 for `0.95×`, -3 for `20k/s` */
  decimals: number;
  unit: Unit;
  /** its paragraph or table names the run it came from (a date and a command, commit or results file) */
  dated: boolean;
}

// a number as the docs write it: `1 522`, `5.5`, `20k`, `15.7k`
const NUM = String.raw`\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)|\d+(?:\.\d+)?k?`;
const UNITS: [RegExp, Unit][] = [
  [/^\s?(?:events|deliveries|messages|msgs|requests|queries)\/s\b/, 'rate'],
  [/^\/s\b/, 'rate'],
  [/^\s?rps\b/, 'rps'],
  [/^\s?µs\b/, 'us'],
  [/^\s?ms\b/, 'ms'],
  [/^ s\b(?![-/])/, 's'],
  [/^\s?MB\b(?!\/)/, 'mb'],
  // a ratio is written against its number (`0.95×`); `1k × 20/s` is a product of settings
  [/^×(?!\s?\d)/, 'ratio'],
];
// `≤ 100 ms`, `target 15 s`, `passes 100 ms`, `1k × 20/s`: a bound or a setting, not a result
const BOUND =
  /(?:[≤≥<>×]|\b(?:target|targets|at most|at least|up to|bound|passes|over|under|within|every|timeout|limit))\s*~?$/i;
// a paragraph or table about a measurement; elsewhere `30 s` and `10 MB` are settings and limits
const MEASUREMENT =
  /\b(?:measured|measurements?|benchmarks?|bench:\w+|p50|p99|rps|sustain(?:s|ed)?|throughput|deliveries\/s|delivered|per delivery|events\/s|RSS|profiles?|quiet machine|load average)\b/i;
// the explicit exemption, with its reason: `<!-- not a result: the retry schedule -->`
const EXEMPT = /<!-- not a result: [^>]+-->/;
const DATE = /\b20\d\d-\d\d-\d\d\b/;
const RUN = /`npm run (?:bench|test:chaos)[^`]*`|\bcommit [0-9a-f]{7,40}\b|results\/[\w-]+\.json/;

const numberValue = (raw: string): { value: number; decimals: number } => {
  const k = raw.endsWith('k');
  const digits = raw.replace(/k$/, '').replace(/[ \u00a0\u202f]/g, '');
  const decimals = digits.includes('.') ? digits.split('.')[1].length : 0;
  return k ? { value: Number(digits) * 1000, decimals: decimals - 3 } : { value: Number(digits), decimals };
};

/** Text the scan reads: no code (commands, settings), no link targets, no HTML comments. */
const prose = (line: string) =>
  line
    .replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
    .replace(/\]\([^)]*\)/g, (m) => ' '.repeat(m.length))
    .replace(/<!--.*?-->/g, (m) => ' '.repeat(m.length))
    .replace(/\*\*/g, '  ');

/** Figures with a unit after them, a range or list of numbers sharing one (`42–56 ms`, `4.41 / 3.92 µs`). */
function inLine(text: string): { raw: string; index: number; unit: Unit }[] {
  const out: { raw: string; index: number; unit: Unit }[] = [];
  const seq = new RegExp(String.raw`(?<![\w.,/×-])((?:${NUM})(?:\s*(?:–|/|to|and)\s*(?:${NUM}))*)`, 'g');
  for (const m of text.matchAll(seq)) {
    const after = text.slice(m.index + m[0].length);
    const unit = UNITS.find(([re]) => re.test(after))?.[1];
    if (!unit) continue;
    // an offered rate is the benchmark's setting: `20 000 deliveries/s asked for`
    if (/^\s?\S*\s+(?:asked for|offered)\b/.test(after)) continue;
    // `the gateway's 30 s request limit`, `its 10 s of retries`
    if (/^\s?\S*\s+(?:\w+\s)?(?:limit|timeout|of retries)\b/.test(after)) continue;
    if (BOUND.test(text.slice(0, m.index))) continue;
    for (const n of m[1].matchAll(new RegExp(NUM, 'g'))) out.push({ raw: n[0], index: m.index + n.index, unit });
  }
  return out;
}

// a table column whose header names a unit gives it to its bare numbers
const HEADER_UNITS: [RegExp, Unit][] = [
  [/\/s\b|per second/, 'rate'],
  [/\brps\b/, 'rps'],
  [/µs/, 'us'],
  [/\bms\b/, 'ms'],
  [/\bMB\b(?!\/)/, 'mb'],
];
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|');

interface Block {
  start: number;
  lines: string[];
  table: boolean;
}

function blocks(md: string): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  let fenced = false;
  md.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const table = line.trimStart().startsWith('|');
    const heading = /^#{1,6}\s/.test(line);
    if (fenced || !line.trim() || heading || (cur && cur.table !== table)) {
      cur = null;
      if (heading) out.push({ start: i, lines: [line], table: false });
      if (fenced || !line.trim() || heading) return;
    }
    if (!cur) out.push((cur = { start: i, lines: [], table }));
    cur.lines.push(line);
  });
  return out;
}

export function scanMarkdown(md: string, file: string): Figure[] {
  const out: Figure[] = [];
  const bs = blocks(md);
  bs.forEach((b, i) => {
    const text = b.lines.join('\n');
    if (EXEMPT.test(text)) return;
    const before = bs[i - 1];
    // a table is dated by its own cells or by the paragraph that introduces it
    const context =
      b.table && before && before.start + before.lines.length === b.start - 1 ? before.lines.join('\n') : '';
    const dated = [text, context].some((t) => DATE.test(t) && RUN.test(t));
    // an `offered/s` column holds the benchmark's settings
    const header = b.table
      ? cells(b.lines[0]).map((h) =>
          /offered|asked/.test(h) ? undefined : HEADER_UNITS.find(([re]) => re.test(h))?.[1],
        )
      : [];
    b.lines.forEach((line, j) => {
      // a table row is about a measurement when it, its header or the paragraph before says so
      const about = b.table ? [context, b.lines[0], line].join('\n') : text;
      if (!MEASUREMENT.test(about)) return;
      const add = (raw: string, unit: Unit) =>
        out.push({ file, line: b.start + j + 1, text: raw, unit, dated, ...numberValue(raw) });
      for (const f of inLine(prose(line))) add(f.raw, f.unit);
      if (!b.table || j < 2) return;
      cells(line).forEach((c, k) => {
        const unit = header[k];
        const bare = prose(c).trim();
        if (unit && new RegExp(String.raw`^(?:(?:${NUM})(?:\s*/\s*|$))+$`).test(bare))
          for (const n of bare.matchAll(new RegExp(NUM, 'g'))) add(n[0], unit);
      });
    });
  });
  return out;
}

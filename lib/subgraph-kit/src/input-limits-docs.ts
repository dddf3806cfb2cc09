import { inputLimits, type InputLimit, type InputLimits } from './input-limits.js';

const HEADING = '## Input values';

const bytes = (n: number) => (n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`);

function bounds(l: Partial<InputLimit>): string {
  const value: string[] = [];
  if (l.maxLength != null)
    value.push(l.minLength != null ? `${l.minLength}–${l.maxLength} characters` : `${l.maxLength} characters`);
  if (l.maxBytes != null) value.push(bytes(l.maxBytes));
  if (l.maxDepth != null) value.push(`${l.maxDepth} levels deep`);
  if (l.maxItems == null) return value.join(', ');
  const list = [`${l.maxItems} items`];
  if (l.maxTotalBytes != null) list.push(`${bytes(l.maxTotalBytes)} in all`);
  return value.length ? `${list.join(', ')}; each ${value.join(', ')}` : list.join(', ');
}

/** The "Input values" section of docs/limits.md, generated from input-limits.ts. */
export function renderInputLimitsDocs(limits: InputLimits = inputLimits): string {
  const d = limits.defaults;
  const rows = Object.entries(limits.fields).map(
    ([coordinate, l]) => `| \`${coordinate}\` | ${bounds(l)} | \`${l.code ?? 'LIMIT_EXCEEDED'}\` | ${l.why} |`,
  );
  return [
    HEADING,
    '',
    'Every argument and input field is bounded. The gateway and each subgraph check the values of',
    'a request against these bounds after validation and before any resolver runs, so nothing is',
    'stored: the error names the argument path (`input.container.image`), its size and the limit',
    'in the message and in `extensions.field`, `extensions.size`, `extensions.limit` and',
    '`extensions.unit`. Strings count characters (UTF-16 code units), lists count items, JSON',
    'values count the UTF-8 bytes of their JSON text and how deeply objects and arrays nest',
    '(`{}` is 1 level, `{"a": []}` is 2). Generated from `lib/subgraph-kit/src/input-limits.ts` by',
    '`npm run limits:docs`; a test fails when this section is stale.',
    '',
    '| input | default | code | what |',
    '| --- | --- | --- | --- |',
    `| any \`String\` | ${bounds(d.String)} | \`LIMIT_EXCEEDED\` | ${d.String.why} |`,
    `| any \`ID\` | ${bounds(d.ID)} | \`LIMIT_EXCEEDED\` | ${d.ID.why} |`,
    `| any \`JSON\` | ${bounds(d.JSON)} | \`LIMIT_EXCEEDED\` | ${d.JSON.why} |`,
    `| any list | ${bounds(d.list)} | \`LIMIT_EXCEEDED\` | ${d.list.why} |`,
    ...rows,
    '',
  ].join('\n');
}

/** The head of docs/limits.md: the title and a short intro; every section follows it. */
export const LIMITS_DOC_TITLE = [
  '# Limits',
  '',
  'Every bound the control plane enforces on a request, with its default and the error code a',
  'client receives when it is crossed (codes: [errors.md](errors.md)).',
  '',
].join('\n');

const headingAt = (text: string, heading: string) => {
  if (text.startsWith(`${heading}\n`)) return 0;
  const i = text.indexOf(`\n${heading}\n`);
  return i < 0 ? -1 : i + 1;
};

/**
 * docs/limits.md with one generated section (its first line is its `## ` heading) written in
 * place, the other sections kept; a missing section is appended, a new file gets the title.
 * Every generator of a section of docs/limits.md can share this.
 */
export function withDocSection(current: string | undefined, section: string): string {
  if (!current?.trim()) return `${LIMITS_DOC_TITLE}\n${section}`;
  const heading = section.slice(0, section.indexOf('\n'));
  const at = headingAt(current, heading);
  if (at < 0) return `${current.trimEnd()}\n\n${section}`;
  const next = current.indexOf('\n## ', at + heading.length);
  return current.slice(0, at) + section + (next < 0 ? '' : current.slice(next));
}

/** One section of docs/limits.md as it stands (from its heading to the next one), for staleness tests. */
export function docSectionOf(current: string, heading: string): string | undefined {
  const at = headingAt(current, heading);
  if (at < 0) return undefined;
  const next = current.indexOf('\n## ', at + heading.length);
  return next < 0 ? current.slice(at) : current.slice(at, next);
}

/** docs/limits.md with its "Input values" section regenerated. */
export const withInputLimitsSection = (current: string | undefined, limits?: InputLimits) =>
  withDocSection(current, renderInputLimitsDocs(limits));

/** The "Input values" section as it stands in docs/limits.md. */
export const inputLimitsSectionOf = (current: string) => docSectionOf(current, HEADING);

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, stringify, type Document, type Node } from 'yaml';

/**
 * What the editor holds: Helm values (a mapping), an operator's merge patches or an operator
 * task's manifests (each a list of mappings).
 */
export type EditorKind = 'helm' | 'operator' | 'manifests';

/** What one item of a list kind is called in its errors. */
const ITEMS = {
  operator: { list: 'merge patches', item: 'patch', what: 'a mapping (an RFC 7396 merge patch)' },
  manifests: { list: 'manifests', item: 'manifest', what: 'a mapping (a Kubernetes object)' },
} as const;

/** A problem with the editor's text, at a line (1-based) when one can be named. */
export interface LineError {
  line: number | null;
  message: string;
}

export type Parsed =
  { ok: true; value: unknown; doc: Document.Parsed; lines: LineCounter } | { ok: false; errors: LineError[] };

/** The editor's initial text: the revision's configuration (or patches) as YAML. */
export function toEditorText(value: unknown): string {
  if (value == null) return '{}\n';
  return stringify(value, { indent: 2, lineWidth: 0 });
}

const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses YAML (JSON is YAML too), keeping where every node is, so that the server's errors can
 * be put back on the line they are about.
 */
export function parseEditor(text: string, kind: EditorKind): Parsed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({
        line: e.linePos?.[0]?.line ?? null,
        message: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''),
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, errors: [{ line: null, message: (err as Error).message }] };
  }
  const first = doc.contents ? lineAt(lines, doc.contents.range?.[0] ?? 0) : 1;
  if (kind === 'helm' && !plainObject(value)) {
    return {
      ok: false,
      errors: [{ line: first, message: `the configuration must be a mapping of Helm values (got ${describe(value)})` }],
    };
  }
  if (kind !== 'helm') {
    const names = ITEMS[kind];
    if (!Array.isArray(value) || value.length === 0)
      return {
        ok: false,
        errors: [
          { line: first, message: `the ${names.list} must be a list of at least one mapping (got ${describe(value)})` },
        ],
      };
    const bad = value.findIndex((p) => !plainObject(p));
    if (bad >= 0) {
      const item = isSeq(doc.contents) ? (doc.contents.items[bad] as Node | undefined) : undefined;
      return {
        ok: false,
        errors: [
          {
            line: item?.range ? lineAt(lines, item.range[0]) : first,
            message: `${names.item} ${bad} must be ${names.what}`,
          },
        ],
      };
    }
  }
  return { ok: true, value, doc, lines };
}

function describe(v: unknown): string {
  if (v == null) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'a mapping' : `a ${typeof v}`;
}

const lineAt = (lines: LineCounter, offset: number) => lines.linePos(offset).line;

/**
 * The line a server error is about. The services name the failing input in
 * `extensions.field` (`configuration.serviceName`, `input.revision.configuration`…) and an
 * operator patch by `extensions.index`; null when neither points into the editor's text.
 */
export function lineOfError(parsed: Parsed, extensions: Record<string, unknown> | undefined): number | null {
  if (!parsed.ok || !extensions) return null;
  const { doc, lines } = parsed;
  if (typeof extensions.index === 'number') {
    const item = isSeq(doc.contents) ? (doc.contents.items[extensions.index] as Node | undefined) : undefined;
    return item?.range ? lineAt(lines, item.range[0]) : null;
  }
  if (typeof extensions.field !== 'string') return null;
  const field = extensions.field.replace(/^input\./, '').replace(/^revision\./, '');
  const m = /^(configuration|manifestMergePatches)(?:\.(.*))?$/.exec(field);
  if (!m) return null;
  const path = m[2] ? m[2].split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : [];
  let node: unknown = doc.contents;
  let offset = doc.contents?.range?.[0] ?? 0;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && (isScalar(p.key) ? p.key.value : p.key) === seg);
      if (!pair) break;
      const key = pair.key as Node | undefined;
      if (key?.range) offset = key.range[0];
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) break;
      if (item.range) offset = item.range[0];
      node = item;
    } else break;
  }
  return lineAt(lines, offset);
}

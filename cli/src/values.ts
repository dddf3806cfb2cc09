import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { yaml } from './yaml.js';
import { UsageError } from './errors.js';

type Segment = string | number;
export interface SetExpression {
  path: Segment[];
  value: unknown;
  text: string;
}

/**
 * Parses `--set key=value` as Helm does: dots separate keys (`\.` is a literal dot), `[N]` indexes
 * a list, and the value is typed as a YAML scalar (`3` a number, `true` a boolean, `null` deletes
 * the key, `"3"` a string); a YAML flow collection (`[a, b]`, `{k: v}`) is taken as one. With
 * `string` (--set-string) the value is the text as it is: `1.5` stays a string, as a tag must.
 */
export function parseSet(text: string, opts: { string?: boolean } = {}): SetExpression {
  const flag = opts.string ? '--set-string' : '--set';
  const eq = text.indexOf('=');
  if (eq <= 0)
    throw new UsageError(`${flag} ${text}: expected key=value (e.g. ${flag} replicas=3 ${flag} image.tag=v2)`);
  const key = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  const path: Segment[] = [];
  for (const part of key.split(/(?<!\\)\./)) {
    const m = /^((?:[^[\]]|\\.)*)((?:\[\d+\])*)$/.exec(part);
    const name = m?.[1]?.replace(/\\\./g, '.');
    if (!m || !name)
      throw new UsageError(
        `${flag} ${text}: '${part}' is not a key (keys are separated by dots, lists indexed with [N])`,
      );
    path.push(name);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  let value: unknown;
  if (raw === '' || opts.string) value = raw;
  else {
    try {
      value = yaml().parse(raw);
    } catch (err) {
      throw new UsageError(`--set ${text}: the value is not YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { path, value, text };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies the expressions in order onto a copy of `base`; `null` removes a key. */
export function applySets(base: unknown, sets: SetExpression[]): Record<string, unknown> {
  const root: Record<string, unknown> = isObject(base) ? structuredClone(base) : {};
  for (const { path, value, text } of sets) {
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const last = i === path.length - 1;
      const nextIsIndex = !last && typeof path[i + 1] === 'number';
      if (typeof seg === 'number') {
        if (!Array.isArray(node)) throw new UsageError(`--set ${text}: [${seg}] indexes something that is not a list`);
        if (seg > node.length)
          throw new UsageError(`--set ${text}: index ${seg} is past the end of a list of ${node.length}`);
        if (last) {
          if (value === null) node.splice(seg, 1);
          else node[seg] = value;
          break;
        }
        if (!(isObject(node[seg]) || Array.isArray(node[seg]))) node[seg] = nextIsIndex ? [] : {};
        node = node[seg] as Record<string, unknown> | unknown[];
      } else {
        if (Array.isArray(node)) throw new UsageError(`--set ${text}: '${seg}' is a key of a list (use [N])`);
        if (last) {
          if (value === null) delete node[seg];
          else node[seg] = value;
          break;
        }
        const child = node[seg];
        // a list stays a list and a map a map: replacing one by the other would drop what it holds
        if (Array.isArray(child) && !nextIsIndex)
          throw new UsageError(
            `--set ${text}: '${seg}' is a list: index it with [N], '${String(path[i + 1])}' is a key of a list`,
          );
        if (isObject(child) && nextIsIndex) throw new UsageError(`--set ${text}: '${seg}' is a map, not a list`);
        if (nextIsIndex ? !Array.isArray(child) : !isObject(child)) node[seg] = nextIsIndex ? [] : {};
        node = node[seg] as Record<string, unknown> | unknown[];
      }
    }
  }
  return root;
}

/** Deep merge for several --values files: later files win, maps merge, lists are replaced. */
function mergeValues(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? mergeValues(out[k], v) : v;
  return out;
}

async function readText(cwd: string, file: string, flag: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(
      `${flag} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
}

/** Every document of a YAML file (`---` separated), empty documents left out. */
export async function readYamlDocuments(cwd: string, file: string, flag: string): Promise<unknown[]> {
  const docs = yaml().parseAllDocuments(await readText(cwd, file, flag));
  const out: unknown[] = [];
  for (const [i, doc] of docs.entries()) {
    if (doc.errors.length)
      throw new UsageError(
        `${flag} ${file}: document ${i + 1} is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`,
      );
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** One YAML (or JSON) file holding a map: a values file. */
async function readValuesFile(cwd: string, file: string): Promise<Record<string, unknown>> {
  const docs = await readYamlDocuments(cwd, file, '--values');
  if (docs.length === 0) return {};
  if (docs.length > 1)
    throw new UsageError(`--values ${file}: holds ${docs.length} YAML documents; a values file is one map`);
  if (!isObject(docs[0]))
    throw new UsageError(
      `--values ${file}: must be a map of keys to values, not ${Array.isArray(docs[0]) ? 'a list' : typeof docs[0]}`,
    );
  return docs[0];
}

/** --values files and --set expressions, read and checked before anything is sent. */
export interface ConfigurationInputs {
  files: Record<string, unknown>[];
  sets: SetExpression[];
}

/** --set, then --set-string (as Helm orders them): each kind in the order given. */
export async function readConfigurationInputs(
  cwd: string,
  valuesFiles: string[],
  sets: string[],
  setStrings: string[] = [],
): Promise<ConfigurationInputs> {
  const parsed = [...sets.map((t) => parseSet(t)), ...setStrings.map((t) => parseSet(t, { string: true }))];
  const files: Record<string, unknown>[] = [];
  for (const f of valuesFiles) files.push(await readValuesFile(cwd, f));
  return { files, sets: parsed };
}

/** The configuration: --values files (merged in order) replace `base`; --set applies on top. */
export function composeConfiguration(base: unknown, inputs: ConfigurationInputs): Record<string, unknown> {
  const start = inputs.files.length
    ? inputs.files.reduce<Record<string, unknown>>((acc, f) => mergeValues(acc, f), {})
    : base;
  return applySets(start, inputs.sets);
}

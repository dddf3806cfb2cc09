/**
 * The schema check (`npm run schema:check`, docs/schema.md): the composed public schema and each
 * subgraph's SDL against the baseline committed in schema/baseline/, with @graphql-inspector/core.
 * Breaking changes fail, one line each; dangerous and safe ones are listed. A development tool:
 * nothing here ships in the image (the package's runtime is src/).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildASTSchema, isInterfaceType, isObjectType, parse, type GraphQLSchema } from 'graphql';
import { diff, ChangeType, CriticalityLevel, type Change, type TypeOfChangeType } from '@graphql-inspector/core';
import { composeSupergraph, subgraphNames, type SubgraphName } from '../src/index.js';

export const schemaDir = fileURLToPath(new URL('..', import.meta.url));
const breakingLogPath = fileURLToPath(new URL('../../BREAKING.md', import.meta.url));

/** What is compared: the public schema clients generate code from, and each subgraph's contract with the gateway. */
export type Checked = 'public' | SubgraphName;
const checked: Checked[] = ['public', ...subgraphNames];
export const baselineFile = (what: Checked) => `${what}.graphql`;

export type Criticality = 'breaking' | 'dangerous' | 'safe';
const criticality = (c: Change): Criticality =>
  c.criticality.level === CriticalityLevel.Breaking
    ? 'breaking'
    : c.criticality.level === CriticalityLevel.Dangerous
      ? 'dangerous'
      : 'safe';

export interface SchemaChange {
  schema: Checked;
  criticality: Criticality;
  type: string;
  /** what changed, as @graphql-inspector names it: `Type`, `Type.field`, `Type.field.argument`, `Enum.VALUE` */
  path: string;
  message: string;
  /** for a removal: whether the baseline had it @deprecated */
  deprecated?: boolean;
}

export interface SchemaCheckOptions {
  /** the folder with the subgraph SDLs and baseline/; default schema/ */
  dir?: string;
  /** default BREAKING.md at the repository root */
  breakingLog?: string;
  /**
   * The baseline as it was before this change (the CLI reads it from git): a baseline change that
   * breaks something must be named in BREAKING.md. Undefined, or undefined for a file: not checked.
   */
  previousBaseline?: (file: string) => string | undefined;
}

export interface SchemaCheckReport {
  /** the schema against the baseline */
  changes: SchemaChange[];
  /** breaking changes of the baseline itself (accepted ones included), against previousBaseline */
  accepted: (SchemaChange & { named: boolean })[];
  /** one line per change, failures first */
  lines: string[];
  ok: boolean;
}

// graphql-js builds a subgraph SDL without resolving federation directives (@key, @link)
const build = (sdl: string): GraphQLSchema => buildASTSchema(parse(sdl), { assumeValid: true, assumeValidSDL: true });

const removals = new Set<string>([
  ChangeType.FieldRemoved,
  ChangeType.FieldArgumentRemoved,
  ChangeType.InputFieldRemoved,
  ChangeType.EnumValueRemoved,
]);

/** Whether what a removal took away was @deprecated in `before`. */
function wasDeprecated(c: Change, before: GraphQLSchema): boolean | undefined {
  const m = c.meta as Record<string, unknown>;
  switch (c.type) {
    case ChangeType.FieldRemoved:
      return m.isRemovedFieldDeprecated as boolean;
    case ChangeType.InputFieldRemoved:
      return m.isInputFieldDeprecated as boolean;
    case ChangeType.EnumValueRemoved:
      return m.isEnumValueDeprecated as boolean;
    case ChangeType.FieldArgumentRemoved: {
      const type = before.getType(m.typeName as string);
      const field =
        type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[m.fieldName as string] : undefined;
      return field?.args.find((a) => a.name === m.removedFieldArgumentName)?.deprecationReason != null;
    }
    default:
      return undefined;
  }
}

/** The changes from `before` to `after`, without the directive-usage echo of @deprecated (FIELD_DEPRECATION_* says it). */
async function changes(schema: Checked, before: string, after: string): Promise<SchemaChange[]> {
  const old = build(before);
  // diff's Change[] leaves the change type `any`; it is one of ChangeType
  const found = (await diff(old, build(after))) as Change<TypeOfChangeType>[];
  return found
    .filter((c) => !(c.type.startsWith('DIRECTIVE_USAGE_') && c.path?.includes('@deprecated')))
    .map((c) => ({
      schema,
      criticality: criticality(c),
      type: c.type,
      path: c.path ?? '(schema)',
      message: c.message,
      ...(removals.has(c.type) ? { deprecated: wasDeprecated(c, old) } : {}),
    }));
}

/** The current side: the public schema composed from the SDLs in `dir`, and those SDLs. */
function currentSchemas(dir = schemaDir): Record<Checked, string> {
  const sdl = (name: SubgraphName) => readFileSync(join(dir, `${name}.graphql`), 'utf8');
  const { publicSchema } = composeSupergraph(sdl);
  return { public: publicSchema, ...Object.fromEntries(subgraphNames.map((n) => [n, sdl(n)])) } as Record<
    Checked,
    string
  >;
}

/** Writes the current schemas as the baseline (`npm run schema:baseline`). */
export function writeBaseline(dir = schemaDir): string[] {
  const current = currentSchemas(dir);
  mkdirSync(join(dir, 'baseline'), { recursive: true });
  return checked.map((what) => {
    const file = join(dir, 'baseline', baselineFile(what));
    writeFileSync(file, current[what]);
    return file;
  });
}

const label = (c: SchemaChange) => `${c.criticality.padEnd(9)} ${c.schema.padEnd(11)} ${c.path}`;

function note(c: SchemaChange): string {
  if (c.deprecated === false)
    return '; it was not @deprecated in the baseline: deprecate it with @deprecated(reason:) first and remove it in a later release';
  if (c.deprecated === true)
    return '; it was @deprecated in the baseline: to remove it now, accept the break (baseline and BREAKING.md, docs/schema.md)';
  return '';
}

export async function checkSchema(opts: SchemaCheckOptions = {}): Promise<SchemaCheckReport> {
  const dir = opts.dir ?? schemaDir;
  const current = currentSchemas(dir);
  const baselinePath = (what: Checked) => join(dir, 'baseline', baselineFile(what));
  const baseline = (what: Checked) => {
    const file = baselinePath(what);
    if (!existsSync(file))
      throw new Error(`${file} is missing: npm run schema:baseline writes the baseline from the current schema`);
    return readFileSync(file, 'utf8');
  };
  // a subgraph added since the last release has no contract of its own to break yet; what it adds
  // to the public schema is still compared with the public baseline
  const added = checked.filter((w) => w !== 'public' && !existsSync(baselinePath(w)));
  const all: SchemaChange[] = [];
  for (const what of checked) {
    if (!added.includes(what)) all.push(...(await changes(what, baseline(what), current[what])));
  }

  // a baseline moved on purpose: every break it accepts is named in BREAKING.md
  const accepted: SchemaCheckReport['accepted'] = [];
  if (opts.previousBaseline) {
    const logFile = opts.breakingLog ?? breakingLogPath;
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    for (const what of checked) {
      if (added.includes(what)) continue;
      const before = opts.previousBaseline(baselineFile(what));
      const now = baseline(what);
      if (before === undefined || before === now) continue;
      for (const c of await changes(what, before, now)) {
        if (c.criticality === 'breaking') accepted.push({ ...c, named: log.includes(`\`${c.path}\``) });
      }
    }
  }

  const failures = [
    ...all.filter((c) => c.criticality === 'breaking').map((c) => `${label(c)} — ${c.message} (${c.type})${note(c)}`),
    ...accepted
      .filter((c) => !c.named)
      .map(
        (c) =>
          `${'breaking'.padEnd(9)} ${`baseline/${c.schema}`.padEnd(11)} ${c.path} — the baseline drops it (${c.type}) but BREAKING.md has no entry naming \`${c.path}\``,
      ),
  ];
  const lines = [
    ...failures,
    ...added.map(
      (w) =>
        `${'new'.padEnd(9)} ${w.padEnd(11)} a subgraph without a baseline yet: the next release's baseline takes it`,
    ),
    ...accepted
      .filter((c) => c.named)
      .map(
        (c) =>
          `${'accepted'.padEnd(9)} ${`baseline/${c.schema}`.padEnd(11)} ${c.path} — ${c.message} (${c.type}), named in BREAKING.md`,
      ),
    ...all.filter((c) => c.criticality === 'dangerous').map((c) => `${label(c)} — ${c.message} (${c.type})`),
    ...all.filter((c) => c.criticality === 'safe').map((c) => `${label(c)} — ${c.message} (${c.type})`),
  ];
  return { changes: all, accepted, lines, ok: failures.length === 0 };
}

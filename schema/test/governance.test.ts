import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSchema, schemaDir, writeBaseline, baselineFile } from '../scripts/governance.js';

const root = join(schemaDir, '..');
const run = (args: string[] = []) => {
  try {
    return {
      code: 0,
      out: execFileSync(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', join(schemaDir, 'scripts/check.ts'), ...args],
        { cwd: root, encoding: 'utf8', stdio: 'pipe' },
      ),
    };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: e.stdout + e.stderr };
  }
};

/** A copy of the SDLs and the baseline to edit: `edit(file, from, to)` changes one subgraph SDL (or baseline/…). */
function copy() {
  const dir = mkdtempSync(join(tmpdir(), 'schema-check-'));
  for (const f of ['nvcf.graphql', 'icms.graphql', 'nvca-status.graphql', 'nvct.graphql', 'baseline'])
    cpSync(join(schemaDir, f), join(dir, f), { recursive: true });
  // each case starts from a baseline equal to the schema (the last release's, as after a release)
  writeBaseline(dir);
  const edit = (file: string, from: string, to: string) => {
    const text = readFileSync(join(dir, file), 'utf8');
    expect(text).toContain(from);
    writeFileSync(join(dir, file), text.replace(from, to));
  };
  return { dir, edit, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('schema check (npm run schema:check)', () => {
  it('takes a subgraph the baseline does not have yet as new: its public additions are safe, nothing else is compared', async () => {
    using c = copy();
    // as the committed baseline is: the release before nvct
    rmSync(join(c.dir, 'baseline', 'nvct.graphql'));
    cpSync(join(schemaDir, 'baseline', 'public.graphql'), join(c.dir, 'baseline', 'public.graphql'));
    const report = await checkSchema({ dir: c.dir });
    expect(report.ok).toBe(true);
    expect(report.lines).toContainEqual(expect.stringMatching(/^new +nvct +a subgraph without a baseline yet/));
    expect(report.changes.filter((x) => x.schema === 'nvct')).toEqual([]);
    // what it adds to the public schema is still compared with the public baseline
    expect(report.changes).toContainEqual(
      expect.objectContaining({ schema: 'public', path: 'Query.task', criticality: 'safe' }),
    );
  }, 60_000);

  it('passes on the committed schema: the baseline is current', async () => {
    const report = await checkSchema();
    expect(report.lines.filter((l) => l.startsWith('breaking'))).toEqual([]);
    expect(report.ok).toBe(true);
    const cli = run();
    expect(cli).toEqual({ code: 0, out: expect.stringContaining('schema check passed') });
  }, 20_000);

  it('fails on a renamed public field, one line naming it, its criticality and that it was not deprecated', async () => {
    using s = copy();
    s.edit('nvcf.graphql', '  functions: [Function!]!', '  allFunctions: [Function!]!');
    const report = await checkSchema({ dir: s.dir });
    expect(report.ok).toBe(false);
    const breaking = report.lines.filter((l) => l.startsWith('breaking'));
    // the public schema and the subgraph's own contract
    expect(breaking).toEqual([
      expect.stringMatching(
        /^breaking +public +Query\.functions — Field 'functions' was removed .*FIELD_REMOVED.*not @deprecated in the baseline/,
      ),
      expect.stringMatching(/^breaking +nvcf +Query\.functions — /),
    ]);
    expect(report.lines).toContainEqual(
      expect.stringMatching(/^safe +public +Query\.allFunctions — Field 'allFunctions' was added/),
    );
    const cli = run(['--dir', s.dir]);
    expect(cli.code).toBe(1);
    expect(cli.out).toMatch(/breaking +public +Query\.functions/);
    expect(cli.out).toContain('schema check failed: 2 breaking');
  }, 20_000);

  it('fails on a removed field or argument, and on a narrowed type', async () => {
    using s = copy();
    s.edit('icms.graphql', '  regions: [String!]!\n', '');
    s.edit('nvcf.graphql', ', graceful: Boolean = false)', ')');
    s.edit('nvcf.graphql', '  inferenceUrl: String\n', '  inferenceUrl: String!\n');
    const report = await checkSchema({ dir: s.dir });
    const publicBreaks = report.changes
      .filter((c) => c.criticality === 'breaking' && c.schema === 'public')
      .map((c) => `${c.type} ${c.path}`);
    expect(publicBreaks).toEqual(
      expect.arrayContaining([
        'FIELD_REMOVED Cluster.regions',
        'FIELD_ARGUMENT_REMOVED Mutation.undeployFunctionVersion.graceful',
        'INPUT_FIELD_TYPE_CHANGED CreateFunctionInput.inferenceUrl',
      ]),
    );
    expect(report.lines).toContainEqual(
      expect.stringMatching(
        /^breaking +public +Mutation\.undeployFunctionVersion\.graceful — .*not @deprecated in the baseline/,
      ),
    );
    expect(report.ok).toBe(false);
  }, 20_000);

  it('passes on an added field, listing it as safe', async () => {
    using s = copy();
    s.edit('nvcf.graphql', '  functions: [Function!]!', '  functions: [Function!]!\n  functionCount: Int!');
    const report = await checkSchema({ dir: s.dir });
    expect(report.ok).toBe(true);
    expect(report.lines).toEqual([
      expect.stringMatching(/^safe +public +Query\.functionCount/),
      expect.stringMatching(/^safe +nvcf +Query\.functionCount/),
    ]);
  }, 20_000);

  it('says when a removed field was deprecated, and still asks for the break to be accepted', async () => {
    using s = copy();
    s.edit(
      'baseline/public.graphql',
      '  regions: [String!]!\n}',
      '  regions: [String!]! @deprecated(reason: "use attributes")\n}',
    );
    s.edit('icms.graphql', '  regions: [String!]!\n', '');
    const report = await checkSchema({ dir: s.dir });
    expect(report.lines[0]).toMatch(/^breaking +public +Cluster\.regions — .*it was @deprecated in the baseline/);
    expect(report.ok).toBe(false);
  }, 20_000);

  it('accepts a break when the baseline moves with it and BREAKING.md names every change', async () => {
    using s = copy();
    // as `git show` answers: nothing for a baseline file the committed baseline does not have
    const before = (file: string) =>
      existsSync(join(schemaDir, 'baseline', file))
        ? readFileSync(join(schemaDir, 'baseline', file), 'utf8')
        : undefined;
    s.edit('icms.graphql', '  regions: [String!]!\n', '');
    writeBaseline(s.dir);
    expect(readFileSync(join(s.dir, 'baseline', baselineFile('public')), 'utf8')).not.toContain(
      'regions: [String!]!\n}',
    );
    const log = join(s.dir, 'BREAKING.md');
    writeFileSync(log, '# Breaking changes\n');
    const unnamed = await checkSchema({ dir: s.dir, previousBaseline: before, breakingLog: log });
    expect(unnamed.ok).toBe(false);
    expect(unnamed.lines[0]).toMatch(
      /^breaking +baseline\/public +Cluster\.regions — the baseline drops it .*BREAKING\.md has no entry naming `Cluster\.regions`/,
    );
    writeFileSync(
      log,
      '# Breaking changes\n\n## 2030-01-01\n- `Cluster.regions` (public, icms): removed; use `Cluster.attributes`.\n',
    );
    const named = await checkSchema({ dir: s.dir, previousBaseline: before, breakingLog: log });
    expect(named.ok).toBe(true);
    expect(named.lines).toEqual([
      expect.stringMatching(/^accepted +baseline\/public +Cluster\.regions .*named in BREAKING\.md/),
      expect.stringMatching(/^accepted +baseline\/icms +Cluster\.regions/),
    ]);
  }, 20_000);
});

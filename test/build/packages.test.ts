/**
 * The production build's bookkeeping, checked without building: production installs only what
 * each package.json declares (`npm ci --omit=dev`) and resolves every package to its dist/, so an
 * import that is not declared, or an export without its built twin, fails only in production.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { workspaces } from '../../scripts/image-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

interface Pkg {
  name: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  private?: boolean;
  files?: string[];
  scripts?: Record<string, string>;
  publishConfig?: { access?: string };
}
const built = workspaces(ROOT).filter((w) => fs.existsSync(path.join(ROOT, w, 'tsconfig.build.json')));
const pkgOf = (w: string) => read(`${w}/package.json`) as Pkg;
const dirOf = new Map(workspaces(ROOT).map((w) => [pkgOf(w).name, w]));

/** Bare specifiers imported by a package's non-test sources: package name → type-only? */
function imports(dir: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  const note = (spec: string, typeOnly: boolean) => {
    if (spec.startsWith('.') || spec.startsWith('node:')) return;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    found.set(name, (found.get(name) ?? true) && typeOnly);
  };
  const files = fs
    .readdirSync(path.join(ROOT, dir, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const f of files) {
    const src = ts.createSourceFile(
      f,
      fs.readFileSync(path.join(ROOT, dir, 'src', f), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (n: ts.Node) => {
      if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
        const c = n.importClause;
        const typeOnly =
          !!c &&
          (c.isTypeOnly ||
            (!c.name &&
              !!c.namedBindings &&
              ts.isNamedImports(c.namedBindings) &&
              c.namedBindings.elements.every((e) => e.isTypeOnly)));
        note(n.moduleSpecifier.text, typeOnly);
      } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
        note(n.moduleSpecifier.text, n.isTypeOnly);
      else if (
        ts.isCallExpression(n) &&
        n.expression.kind === ts.SyntaxKind.ImportKeyword &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      )
        note(n.arguments[0].text, false);
      else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
        note(n.argument.literal.text, true);
      ts.forEachChild(n, visit);
    };
    visit(src);
  }
  return found;
}

describe('production packaging', () => {
  it.each(built)('%s declares every package its sources import (runtime imports as dependencies)', (dir) => {
    const pkg = pkgOf(dir);
    const found = imports(dir);
    if (Object.keys(pkg.dependencies ?? {}).length) expect(found.size).toBeGreaterThan(0); // the scan itself works
    const missing = [...found].filter(
      ([name, typeOnly]) =>
        name !== pkg.name && !pkg.dependencies?.[name] && !(typeOnly && pkg.devDependencies?.[name]),
    );
    expect(missing.map(([name, typeOnly]) => `${name}${typeOnly ? ' (types)' : ''}`)).toEqual([]);
  });

  it('declares the versions the root installs for development', () => {
    const rootDeps = { ...read('package.json').devDependencies, ...read('package.json').dependencies } as Record<
      string,
      string
    >;
    const drift = workspaces(ROOT).flatMap((w) =>
      Object.entries({ ...pkgOf(w).dependencies, ...pkgOf(w).devDependencies })
        .filter(([name, range]) => !name.startsWith('@nvcf/') && rootDeps[name] !== range)
        .map(([name, range]) => `${w}: ${name}@${range} (root: ${rootDeps[name] ?? 'none'})`),
    );
    expect(drift).toEqual([]);
  });

  it.each(built)('%s exports its sources to dev and test, its dist/ to production', (dir) => {
    const bad = Object.entries(pkgOf(dir).exports ?? {}).filter(([, target]) => {
      // test-only subpaths stay TypeScript; data files (a JSON manifest) are the same in dev and production
      if (typeof target === 'string') return !target.startsWith('./test/') && !target.endsWith('.json');
      const t = target as Record<string, string>;
      const rel = t.source?.match(/^\.\/src\/(.+)\.ts$/)?.[1];
      return (
        !rel ||
        Object.keys(t)[0] !== 'source' ||
        t.types !== `./dist/${rel}.d.ts` ||
        t.default !== `./dist/${rel}.js` ||
        !fs.existsSync(path.join(ROOT, dir, t.source))
      );
    });
    expect(bad).toEqual([]);
  });

  it.each(built)('%s references exactly the workspace packages it depends on in tsconfig.build.json', (dir) => {
    const cfg = read(`${dir}/tsconfig.build.json`) as { references?: { path: string }[] };
    const refs = (cfg.references ?? [])
      .map((r) => path.relative(ROOT, path.resolve(ROOT, dir, path.dirname(r.path))))
      .sort();
    const deps = Object.keys(pkgOf(dir).dependencies ?? {})
      .filter((n) => dirOf.has(n))
      .map((n) => dirOf.get(n)!)
      .sort();
    expect(refs).toEqual(deps);
  });

  // `changeset publish` publishes every workspace that is not private: a new one must choose
  it('publishes only the packages meant for users, built, public, with their CHANGELOG', () => {
    const published = workspaces(ROOT).filter((w) => !pkgOf(w).private);
    expect(published.map((w) => pkgOf(w).name).sort()).toEqual(['@nvcf/cli', '@nvcf/client']);
    for (const w of published) {
      const pkg = pkgOf(w);
      expect([w, pkg.publishConfig?.access, pkg.scripts?.prepack]).toEqual([w, 'public', 'tsc -b tsconfig.build.json']);
      expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md']));
      expect(fs.existsSync(path.join(ROOT, w, 'CHANGELOG.md'))).toBe(true);
      // a published package resolves its dependencies from the registry: only published ones
      const unpublished = Object.keys(pkg.dependencies ?? {}).filter(
        (n) => dirOf.has(n) && pkgOf(dirOf.get(n)!).private,
      );
      expect(unpublished).toEqual([]);
    }
  });

  it('builds every package from the root tsconfig.build.json', () => {
    const refs = (read('tsconfig.build.json') as { references: { path: string }[] }).references
      .map((r) => path.dirname(r.path))
      .sort();
    expect(refs).toEqual([...built].sort());
  });

  it('runs TypeScript in every npm script with the source condition (else a stale dist/ would run)', () => {
    const scripts = read('package.json').scripts as Record<string, string>;
    expect(
      Object.entries(scripts)
        .filter(([, s]) => /\.ts\b/.test(s) && !s.includes('--conditions=source'))
        .map(([k]) => k),
    ).toEqual([]);
  });

  it('has a source main for every command of the image launcher', () => {
    const launcher = fs.readFileSync(path.join(ROOT, 'bin/nvcf.js'), 'utf8');
    const mains = [...launcher.matchAll(/'([\w/-]+)\/dist\/([\w-]+)\.js'/g)].map((m) => `${m[1]}/src/${m[2]}.ts`);
    // every deployable and every tool the chart's hooks run
    for (const m of [
      'gateway/src/main.ts',
      'subgraphs/nvcf/src/main.ts',
      'subgraphs/icms/src/main.ts',
      'subgraphs/nvca-status/src/main.ts',
      'agent/src/main.ts',
      'webhook/src/main.ts',
      'lib/cassandra/src/migrate-main.ts',
      'ops/src/preflight-main.ts',
      'ops/src/streams-main.ts',
      'ops/src/backup-main.ts',
      'ops/src/restore-main.ts',
    ])
      expect(mains).toContain(m);
    expect(mains.filter((m) => !fs.existsSync(path.join(ROOT, m)))).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderResults } from '../../report.js';
import { readLatest } from '../../provenance/latest.js';
import { scanMarkdown } from '../scan.js';
import { readResults, unsourced } from '../sources.js';

const docs = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docs(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
  );

describe('no hand-written benchmark figure', () => {
  it('RESULTS.md is what latest.json, fleet.json, chaos.json and ANALYSIS.md render (npm run bench -- --render)', () => {
    expect(readFileSync('bench/RESULTS.md', 'utf8')).toBe(renderResults(readLatest()));
  });

  it('every figure in the docs is in the results files or dated to its run', () => {
    const results = readResults();
    const files = [...docs('docs'), 'bench/ANALYSIS.md', 'bench/RESULTS.md'];
    const found = files.flatMap((f) =>
      unsourced(scanMarkdown(readFileSync(f, 'utf8'), f), results).map(
        (x) => `${x.file}:${x.line}: ${x.text} (${x.unit})`,
      ),
    );
    // a figure from a run says which: "(2026-11-29, commit abc1234)" or the command; else it goes, or reads "not measured since"
    expect(found).toEqual([]);
  });
});

/** docs/deploy.md's values tables are generated from the charts' schemas and defaults (`npm run helm:docs`). */
import fs from 'node:fs';
import path from 'node:path';
import { CHART_NAMES, DOCS_FILE, renderDocs, valuesRows } from '../scripts/values-docs.js';
import { HELM_DIR } from './helm-fixtures.js';

describe('the values tables of docs/deploy.md', () => {
  it('are what npm run helm:docs generates from values.schema.json and values.yaml (stale: regenerate)', () => {
    const text = fs.readFileSync(DOCS_FILE, 'utf8');
    expect(renderDocs(text)).toBe(text);
  });

  it.each(CHART_NAMES)('%s: every key of values.yaml is in the table with a description, and no key is only in the schema', (chart) => {
    const rows = valuesRows(path.join(HELM_DIR, chart));
    expect(rows.filter((r) => !r.what)).toEqual([]);
    expect(rows.filter((r) => !r.default).map((r) => r.key)).toEqual([]); // values.yaml sets every key the schema knows
  });
});

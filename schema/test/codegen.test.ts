import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { parse } from 'yaml';
// @ts-expect-error plain .mjs helper shared with `npm run codegen`
import { fixImports } from '../scripts/fix-generated.mjs';

describe('generated client', () => {
  it('is current with the public schema and the operations (npm run codegen)', async () => {
    const root = new URL('../../', import.meta.url).pathname;
    const config = parse(readFileSync(new URL('../codegen.yml', import.meta.url), 'utf8'));
    const prev = process.cwd();
    process.chdir(root);
    try {
      const outputs = await generate({ ...config, silent: true }, false);
      expect(outputs.length).toBeGreaterThan(0);
      for (const o of outputs) {
        expect(readFileSync(new URL(o.filename, `file://${root}`), 'utf8')).toBe(fixImports(o.content));
      }
    } finally {
      process.chdir(prev);
    }
  }, 60_000);
});

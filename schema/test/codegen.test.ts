import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain .mjs helper shared with `npm run codegen`
import { fixImports } from '../scripts/fix-generated.mjs';

describe('generated client', () => {
  it('is current with the public schema and the operations, trusted-documents manifest included (npm run codegen)', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const out = mkdtempSync(join(tmpdir(), 'codegen-'));
    try {
      // the same config, written elsewhere: the CLI runs out of process (it loads CommonJS presets)
      const config = readFileSync(join(root, 'schema/codegen.yml'), 'utf8').replace('schema/generated/:', `${out}/:`);
      writeFileSync(join(out, 'codegen.yml'), config);
      execFileSync(join(root, 'node_modules/.bin/graphql-codegen'), ['--config', join(out, 'codegen.yml'), '--silent'], { cwd: root, stdio: 'pipe' });
      const generated = (f: string) => f.endsWith('.ts') || f.endsWith('.json');
      const files = readdirSync(out).filter(generated);
      expect(files.sort()).toEqual(readdirSync(join(root, 'schema/generated')).filter(generated).sort());
      expect(files).toContain('persisted-documents.json');
      for (const f of files) {
        const fresh = readFileSync(join(out, f), 'utf8');
        expect(readFileSync(join(root, 'schema/generated', f), 'utf8')).toBe(f.endsWith('.ts') ? fixImports(fresh) : fresh);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error plain .mjs helper shared with `npm run codegen`
import { fixGenerated } from '../scripts/fix-generated.mjs';

describe('generated client', () => {
  it('is current with the public schema and the operations, trusted-documents manifest included (npm run codegen)', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const out = mkdtempSync(join(tmpdir(), 'codegen-'));
    try {
      // the same config, written elsewhere: the CLI runs out of process (it loads CommonJS presets)
      const config = readFileSync(join(root, 'client/codegen.yml'), 'utf8').replace(
        'client/src/generated/:',
        `${out}/gen/:`,
      );
      writeFileSync(join(out, 'codegen.yml'), config);
      execFileSync(
        join(root, 'node_modules/.bin/graphql-codegen'),
        ['--config', join(out, 'codegen.yml'), '--silent'],
        { cwd: root, stdio: 'pipe' },
      );
      fixGenerated(pathToFileURL(join(out, 'gen/')), pathToFileURL(join(out, 'persisted-documents.json')));
      const files = readdirSync(join(out, 'gen')).filter((f) => f.endsWith('.ts'));
      expect(files.sort()).toEqual(
        readdirSync(join(root, 'client/src/generated'))
          .filter((f) => f.endsWith('.ts'))
          .sort(),
      );
      for (const f of files)
        expect(readFileSync(join(root, 'client/src/generated', f), 'utf8')).toBe(
          readFileSync(join(out, 'gen', f), 'utf8'),
        );
      expect(readFileSync(join(root, 'client/persisted-documents.json'), 'utf8')).toBe(
        readFileSync(join(out, 'persisted-documents.json'), 'utf8'),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

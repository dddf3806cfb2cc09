import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const configPath = join(root, 'schema/codegen-resolvers.yml');

describe('generated resolver types', () => {
  it('are current with each subgraph SDL (npm run codegen)', () => {
    const config = parseYaml(readFileSync(configPath, 'utf8')) as { generates: Record<string, unknown> };
    const outputs = Object.keys(config.generates);
    expect(outputs.sort()).toEqual([
      'lib/status-stream/src/generated/schema.ts',
      'lib/status-stream/src/generated/tasks.ts',
      'subgraphs/icms/src/generated/resolvers.ts',
      'subgraphs/nvca-status/src/generated/resolvers.ts',
      'subgraphs/nvcf/src/generated/resolvers.ts',
      'subgraphs/nvct/src/generated/resolvers.ts',
    ]);
    const out = mkdtempSync(join(tmpdir(), 'codegen-resolvers-'));
    try {
      // the same config, written elsewhere; the generated imports are relative, so only the output paths move
      let text = readFileSync(configPath, 'utf8');
      for (const o of outputs) text = text.replace(`${o}:`, `${join(out, o)}:`);
      writeFileSync(join(out, 'codegen.yml'), text);
      execFileSync(
        join(root, 'node_modules/.bin/graphql-codegen'),
        ['--config', join(out, 'codegen.yml'), '--silent'],
        { cwd: root, stdio: 'pipe' },
      );
      for (const o of outputs) expect(readFileSync(join(root, o), 'utf8')).toBe(readFileSync(join(out, o), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

// The client preset writes extension-less relative imports; NodeNext ESM needs '.js'.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

export const fixImports = (src) => src.replace(/from (['"])\.\/([\w-]+)\1/g, "from './$2.js'");

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = new URL('../generated/', import.meta.url);
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const p = new URL(f, dir);
    writeFileSync(p, fixImports(readFileSync(p, 'utf8')));
  }
}

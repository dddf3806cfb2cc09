// After the client preset: NodeNext ESM needs '.js' on its extension-less relative imports, and
// the trusted-documents manifest moves to the package root, where the package ships and exports it.
import { readdirSync, readFileSync, writeFileSync, renameSync, existsSync } from 'node:fs';

export const fixImports = (src) => src.replace(/from (['"])\.\/([\w-]+)\1/g, "from './$2.js'");

export function fixGenerated(dir, manifestTo) {
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const p = new URL(f, dir);
    writeFileSync(p, fixImports(readFileSync(p, 'utf8')));
  }
  const manifest = new URL('persisted-documents.json', dir);
  if (existsSync(manifest)) renameSync(manifest, manifestTo);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fixGenerated(new URL('../src/generated/', import.meta.url), new URL('../persisted-documents.json', import.meta.url));
}

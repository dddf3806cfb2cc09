import { existsSync, readFileSync } from 'node:fs';

/** KEY=VALUE lines of `.services/env` (written by npm run services:up); missing file → {}. */
export function readEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2]!;
  }
  return out;
}

// bench/results/latest.json by section: a command writes the sections it measured, each whole and with its own
// run; the sections it did not measure keep theirs. No field speaks for the whole file, which is stitched.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Run } from './run.js';

export const LATEST = 'bench/results/latest.json';
export const SECTIONS = ['queries', 'subscriptions', 'sweep', 'rollout', 'fleet', 'hardening'] as const;
export type SectionName = (typeof SECTIONS)[number];
export type Section = { run: Run } & Record<string, unknown>;
export type Latest = Partial<Record<SectionName, Section>>;

// the file-wide fields of before, which named one run for a file stitched from several
const FILE_WIDE = new Set(['date', 'machine', 'mode', 'command', 'duration_s']);

export function readLatest(file = LATEST): Latest {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Latest) : {};
}

/** Replaces the given sections (each with its run) and nothing else; sections in the order. */
export function mergeSections(parts: Latest, file = LATEST): Latest {
  const prev: Record<string, unknown> = { ...readLatest(file), ...parts };
  const next: Record<string, unknown> = {};
  for (const k of SECTIONS) if (prev[k] !== undefined) next[k] = prev[k];
  for (const [k, v] of Object.entries(prev)) if (!(k in next) && !FILE_WIDE.has(k)) next[k] = v;
  writeFileSync(file, JSON.stringify(next, null, 2) + '\n');
  return next;
}

// The hardening section of bench/RESULTS.md, from latest.json's `hardening` (written by npm run bench:hardening).
import { runLine } from '../provenance/render.js';
import type { Run } from '../provenance/run.js';

interface Answer {
  status: number;
  code?: unknown;
  bytes?: number;
  ms: number;
  healthWorstMs: number;
}
export interface HardeningSection {
  run: Run;
  /** one entry per request of bench/hardening.ts: an answer, or a single figure (heap kept, subscriptions open) */
  results: Record<string, Answer | number | string | boolean>;
}

const isAnswer = (v: unknown): v is Answer => typeof v === 'object' && v !== null && 'status' in v;
const cell = (v: unknown) => String(typeof v === 'string' ? v : JSON.stringify(v)).replace(/\|/g, '\\|');

export function hardening(h: HardeningSection): string {
  const rows = Object.entries(h.results ?? {}).map(([what, v]) =>
    isAnswer(v)
      ? `| ${what} | ${v.status} | ${cell(v.code ?? '–')} | ${v.ms} ms | ${v.healthWorstMs} ms |`
      : `| ${what} | ${cell(v)} | | | |`,
  );
  return [
    runLine(h.run),
    '',
    'Abusive and malformed requests against the embedded default, each with a `/health` probe running beside it',
    '(`bench/hardening.ts`): the answer, its time, and the slowest `/health` answer meanwhile.',
    '',
    '| request | status (or figure) | code | time | slowest /health |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

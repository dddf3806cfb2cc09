// The figures the results files hold, by unit: a figure in the docs is sourced when one of them, rounded as the
// figure is written, is the figure.
import { existsSync, readFileSync } from 'node:fs';
import type { Figure, Unit } from './scan.js';

export const RESULT_FILES = ['bench/results/latest.json', 'bench/results/fleet.json', 'bench/results/chaos.json'];

// which fields measure what, by name (`p99_ms`, `rollout_s`, `delivered_per_s`, `ratio_vs_raw`, `rounds_rps`)
const KEY_UNITS: [RegExp, Unit][] = [
  [/per_s$|^rate$/, 'rate'],
  [/rps$/, 'rps'],
  [/_ms$/, 'ms'],
  [/(^|_)s$|seconds/, 's'],
  [/_mb$/, 'mb'],
  [/ratio|_vs_/, 'ratio'],
];

export type Sourced = Map<Unit, number[]>;

/** Every number of the results, under the unit its field (or the nearest named field above it) says. */
export function indexResults(docs: unknown[]): Sourced {
  const out: Sourced = new Map();
  const walk = (v: unknown, unit: Unit | undefined) => {
    if (typeof v === 'number' && unit) out.set(unit, [...(out.get(unit) ?? []), v]);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, unit));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v))
        // what a step offered is the benchmark's setting, not what it measured
        if (!k.startsWith('offered')) walk(x, KEY_UNITS.find(([re]) => re.test(k))?.[1] ?? unit);
  };
  docs.forEach((d) => walk(d, undefined));
  return out;
}

export function readResults(files = RESULT_FILES): Sourced {
  return indexResults(files.filter((f) => existsSync(f)).map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown));
}

const rounded = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

// a latency kept in ms may be written in seconds, and the other way round
const candidates = (f: Figure, index: Sourced): number[] => {
  const of = (u: Unit) => index.get(u) ?? [];
  if (f.unit === 's') return [...of('s'), ...of('ms').map((v) => v / 1000)];
  if (f.unit === 'ms') return [...of('ms'), ...of('s').map((v) => v * 1000)];
  return of(f.unit);
};

export const isSourced = (f: Figure, index: Sourced) =>
  candidates(f, index).some((v) => Math.abs(rounded(v, f.decimals) - f.value) < 1e-9 * Math.max(1, f.value));

/** The figures that need a source: neither in the results nor dated to their run. */
export const unsourced = (figures: Figure[], index: Sourced) => figures.filter((f) => !f.dated && !isSourced(f, index));

// Several runs of one measurement as one figure each: the median, with the lowest and highest beside
// it. On a shared 2-core machine one run is one draw from a wide spread (the fleet rows, the
// fixed-rate subscription runs).
import { median } from './lib.js';

export type Spread<K extends PropertyKey> = Partial<Record<K, [number, number]>>;

/** Each key's median over the runs (keys no run has as a number are left out) and its range. */
export function medianAndSpread<T, K extends keyof T & string>(
  runs: T[],
  keys: readonly K[],
): { medians: Partial<Record<K, number>>; spread: Spread<K> } {
  const medians: Partial<Record<K, number>> = {};
  const spread: Spread<K> = {};
  for (const k of keys) {
    const xs = runs.map((r) => r[k]).filter((x): x is T[K] & number => typeof x === 'number');
    if (xs.length === 0) continue;
    medians[k] = median(xs);
    spread[k] = [Math.min(...xs), Math.max(...xs)];
  }
  return { medians, spread };
}

/** A figure for a table, and its lowest–highest when it comes from several runs; only the median bold. */
export function withRange(v: number, range: [number, number] | undefined, show: (x: number) => string, bold = false) {
  const head = bold ? `**${show(v)}**` : show(v);
  return range ? `${head} (${show(range[0])}–${show(range[1])})` : head;
}

import type { KindSpec, OperatorRegistry, ReadyRule } from './registry.js';
import { at } from './paths.js';

type Obj = Record<string, any>;

/** A rule with no values means "exists"; `atLeast` compares numbers (ready replicas). */
export function meets(obj: Obj, rule: ReadyRule): boolean {
  const values = at(obj, rule.path);
  if (rule.atLeast !== undefined) return values.some((v) => typeof v === 'number' && v >= rule.atLeast!);
  if (!rule.values.length) return true;
  return values.some((v) => rule.values.includes(v as string | number | boolean));
}

export function kindSpecOf(registry: OperatorRegistry, o: Obj): KindSpec | undefined {
  for (const t of registry.types) {
    const k = [...t.kinds, ...t.extraTypes, ...t.secondary].find((s) => s.apiVersion === o.apiVersion && s.kind === o.kind);
    if (k) return k;
  }
  return undefined;
}

/** Not ready objects, as `Kind/name` (empty: the instance is ready). */
export function notReady(objects: Obj[], registry: OperatorRegistry): string[] {
  return objects.filter((o) => { const k = kindSpecOf(registry, o); return !k || !meets(o, k.ready); }).map((o) => `${o.kind}/${o.metadata?.name}`);
}

import { isList, isObj, type Obj } from './values.js';

/** `name[key=value]`: the elements of the array `name` whose `key` is `value` (a condition by type). */
const SELECT = /^([^[\]=]+)\[([^[\]=]+)=([^[\]]*)\]$/;
const SEGMENT = /^([A-Za-z0-9_-]+|\*|[A-Za-z0-9_-]+\[[A-Za-z0-9_-]+=[^[\]]*\])$/;

/** Why a dotted path is malformed, or null (segments: keys, `*`, or `name[key=value]`). */
export function pathError(path: unknown): string | null {
  if (typeof path !== 'string' || !path.trim()) return 'must be a non-empty dotted path';
  const bad = path.split('.').find((seg) => !SEGMENT.test(seg));
  return bad === undefined ? null : `segment '${bad}' of '${path}' is not a key, '*' or name[key=value]`;
}

/** Values at a dotted path; `*` matches every key of an object (or element of an array); `conditions[type=Ready]` selects elements. */
export function at(root: unknown, path: string): unknown[] {
  let cur: unknown[] = [root];
  for (const seg of path.split('.').filter(Boolean)) {
    const next: unknown[] = [];
    const sel = SELECT.exec(seg);
    for (const v of cur) {
      if (sel) {
        const list = isObj(v) ? v[sel[1]] : undefined;
        if (isList(list)) next.push(...list.filter((e) => isObj(e) && String(e[sel[2]]) === sel[3]));
      } else if (seg === '*') {
        if (isObj(v)) next.push(...Object.values(v));
        else if (isList(v)) next.push(...v);
      } else if (isObj(v) && seg in v) next.push(v[seg]);
    }
    cur = next;
  }
  return cur;
}

/** The objects at a path, created where missing (single-key segments only; `*` visits existing). */
export function ensureObjects(root: Obj, path: string): Obj[] {
  let cur: Obj[] = [root];
  for (const seg of path.split('.').filter(Boolean)) {
    const next: Obj[] = [];
    for (const v of cur) {
      if (seg === '*') {
        for (const child of Object.values(v)) if (isObj(child)) next.push(child);
        continue;
      }
      if (!isObj(v[seg])) v[seg] = {};
      next.push(v[seg] as Obj);
    }
    cur = next;
  }
  return cur;
}

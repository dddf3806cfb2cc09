type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Values at a dotted path; `*` matches every key of an object (or element of an array). */
export function at(root: unknown, path: string): unknown[] {
  let cur: unknown[] = [root];
  for (const seg of path.split('.').filter(Boolean)) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (seg === '*') { if (isObj(v)) next.push(...Object.values(v)); else if (Array.isArray(v)) next.push(...v); }
      else if (isObj(v) && seg in v) next.push(v[seg]);
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
      if (seg === '*') { for (const child of Object.values(v)) if (isObj(child)) next.push(child); continue; }
      if (!isObj(v[seg])) v[seg] = {};
      next.push(v[seg] as Obj);
    }
    cur = next;
  }
  return cur;
}

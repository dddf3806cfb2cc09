import { Kind, type ValueNode } from 'graphql';

/** How big a JSON value is: the UTF-8 bytes of JSON.stringify(value), and how deep it nests. */
export interface JsonExtent {
  bytes: number;
  /** objects and arrays nested: 0 for a scalar, 1 for {} or [], 2 for {"a":[]} */
  depth: number;
}

// characters JSON.stringify escapes (or writes as \uXXXX): the slow path counts them
// eslint-disable-next-line no-control-regex -- control characters are what it must find: JSON escapes them
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** UTF-8 bytes of JSON.stringify(s), without building the string. */
export function jsonStringBytes(s: string): number {
  let n = Buffer.byteLength(s, 'utf8') + 2;
  if (!SPECIAL.test(s)) return n;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) n += 1;
    else if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else n += 3; // a lone surrogate: Buffer counts U+FFFD (3 bytes), JSON writes \udXXX (6)
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 3;
  }
  return n;
}

const scalarBytes = (v: unknown): number => {
  switch (typeof v) {
    case 'string':
      return jsonStringBytes(v);
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    default:
      return 4; // null; undefined in an array is written as null
  }
};

/**
 * Measures a JSON value given in variables or as a literal, iteratively: a value nested
 * 100 000 levels deep is measured without recursion. Literal values measure what the JSON
 * scalar turns them into (an enum value becomes undefined: dropped from objects, null in lists).
 */
export function jsonExtent(
  value: { raw: unknown } | { ast: ValueNode },
  variables?: Record<string, unknown> | null,
): JsonExtent {
  let bytes = 0;
  let depth = 0;
  // two stacks of (value, nesting of its container): plain values, and literals
  const raws: unknown[] = [];
  const rawDepths: number[] = [];
  const asts: ValueNode[] = [];
  const astDepths: number[] = [];
  if ('raw' in value) {
    raws.push(value.raw);
    rawDepths.push(0);
  } else {
    asts.push(value.ast);
    astDepths.push(0);
  }
  while (raws.length || asts.length) {
    while (raws.length) {
      const v = raws.pop();
      const at = rawDepths.pop()!;
      if (v === null || typeof v !== 'object') {
        bytes += scalarBytes(v);
        continue;
      }
      const level = at + 1;
      if (level > depth) depth = level;
      if (Array.isArray(v)) {
        bytes += 2 + Math.max(0, v.length - 1);
        for (let i = 0; i < v.length; i++) {
          raws.push(v[i]);
          rawDepths.push(level);
        }
        continue;
      }
      let entries = 0;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const child = (v as Record<string, unknown>)[key];
        if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
        entries++;
        bytes += jsonStringBytes(key) + 1;
        raws.push(child);
        rawDepths.push(level);
      }
      bytes += 2 + Math.max(0, entries - 1);
    }
    if (!asts.length) break;
    const node = asts.pop()!;
    const at = astDepths.pop()!;
    switch (node.kind) {
      case Kind.VARIABLE: {
        const name = node.name.value;
        raws.push(variables && Object.hasOwn(variables, name) ? variables[name] : undefined);
        rawDepths.push(at);
        break;
      }
      case Kind.STRING:
        bytes += jsonStringBytes(node.value);
        break;
      case Kind.INT:
      case Kind.FLOAT:
        bytes += scalarBytes(Number(node.value));
        break;
      case Kind.BOOLEAN:
        bytes += node.value ? 4 : 5;
        break;
      case Kind.LIST: {
        const level = at + 1;
        if (level > depth) depth = level;
        bytes += 2 + Math.max(0, node.values.length - 1);
        for (const v of node.values) {
          asts.push(v);
          astDepths.push(level);
        }
        break;
      }
      case Kind.OBJECT: {
        const level = at + 1;
        if (level > depth) depth = level;
        let entries = 0;
        for (const f of node.fields) {
          if (f.value.kind === Kind.ENUM) continue;
          entries++;
          bytes += jsonStringBytes(f.name.value) + 1;
          asts.push(f.value);
          astDepths.push(level);
        }
        bytes += 2 + Math.max(0, entries - 1);
        break;
      }
      default:
        bytes += 4; // null, or an enum value in a list
    }
  }
  return { bytes, depth };
}

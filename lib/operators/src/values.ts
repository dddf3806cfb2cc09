/** Narrowing for parsed YAML and JSON, whose shape is only known once checked. */
export type Obj = Record<string, unknown>;

/** Any non-null object (arrays included): what can be indexed by key. */
export const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

/** A plain object, not an array. */
export const isObj = (v: unknown): v is Obj => isRecord(v) && !Array.isArray(v);

export const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** The value of `key` when `v` is an object, else undefined (as `v?.[key]` on parsed data). */
export const field = (v: unknown, key: string): unknown => (isRecord(v) ? v[key] : undefined);

/** A value in a message: primitives as a template literal prints them, anything else as JSON. */
export function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v === undefined || v === null)
    return String(v);
  return JSON.stringify(v) ?? typeof v;
}

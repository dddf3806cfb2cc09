export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads an enum-like variable; the error names every allowed value. */
export function oneOf<const T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got '${raw}')`);
}

export function int(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
  }
  return n;
}

export function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

export function required(env: Env, name: string, hint: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(`${name} is required: ${hint}`);
  return raw;
}

/** `a=1,b=2` → { a: '1', b: '2' }; the error shows the expected shape. */
export function pairs(env: Env, name: string, fallback: Record<string, string>): Record<string, string> {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const out: Record<string, string> = {};
  for (const part of raw.split(',')) {
    const [k, v, ...rest] = part.split('=');
    if (!k || !v || rest.length)
      throw new ConfigError(`${name} must look like 'token1=tenant1,token2=tenant2' (got '${raw}')`);
    out[k.trim()] = v.trim();
  }
  return out;
}

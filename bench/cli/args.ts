// The options of the benchmark entry points (`--name value`), read and refused one way everywhere.

/** The value after `--name`; undefined when the option is absent, refused when it has no value. */
export function arg(name: string, argv: readonly string[] = process.argv): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} wants a value`);
  return v;
}

/** `--name N`: a whole number ≥ 1, `fallback` when absent. */
export function positiveInt(name: string, fallback: number, argv: readonly string[] = process.argv): number {
  const raw = arg(name, argv);
  const v = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} wants a whole number ≥ 1 (got '${raw}')`);
  return v;
}

/** `--name a,b`: names each of `allowed`, `fallback` when absent. */
export function listOf<T extends string>(
  name: string,
  allowed: readonly T[],
  fallback: readonly T[],
  argv: readonly string[] = process.argv,
): T[] {
  const raw = arg(name, argv);
  if (raw === undefined) return [...fallback];
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => !allowed.includes(s as T)))
    throw new Error(`--${name} takes ${allowed.join(', ')}, comma-separated (got '${raw}')`);
  return items as T[];
}

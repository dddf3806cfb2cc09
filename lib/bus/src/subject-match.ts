import type { StreamSpec } from './types.js';

/** NATS subject matching with `*` and `>` wildcards. */
export function subjectMatches(filter: string | undefined, subject: string): boolean {
  if (!filter) return true;
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}

/**
 * Which of a bus's streams a subject belongs to: the low-cardinality name spans and metrics use.
 * Every publish and delivery asks, and subjects repeat (one per instance), so answers are kept,
 * up to a bound that a fleet of ids cannot push past.
 */
export class StreamIndex {
  private readonly specs: StreamSpec[] = [];
  private readonly known = new Map<string, string>();
  constructor(private readonly bound = 10_000) {}

  add(specs: readonly StreamSpec[]): void {
    for (const spec of specs) {
      const i = this.specs.findIndex((s) => s.name === spec.name);
      if (i >= 0) this.specs[i] = spec;
      else this.specs.push(spec);
    }
    this.known.clear();
  }

  of(subject: string): string {
    let name = this.known.get(subject);
    if (name !== undefined) return name;
    name = this.specs.find((s) => s.subjects.some((f) => subjectMatches(f, subject)))?.name ?? 'other';
    if (this.known.size >= this.bound) this.known.clear();
    this.known.set(subject, name);
    return name;
  }
}

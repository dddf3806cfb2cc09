import { fail } from '@nvcf/errors';

// days, hours, minutes and seconds have one length each; a year or a month does not, so they are refused
const DURATION = /^P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?)$/;

const MS = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 };

/** Milliseconds of an ISO-8601 duration (PnW or PnDTnHnMnS), or null when it is not one. */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m;
  const n = (v: string | undefined) => (v ? Number(v) : 0);
  return n(w) * MS.W + n(d) * MS.D + n(h) * MS.H + n(min) * MS.M + Math.round(n(s) * MS.S);
}

export interface DurationBounds {
  default: string;
  max: string;
}

/** The duration given (or the default), checked: an INVALID_DURATION error names the field and the range. */
export function checkDuration(field: string, given: string | null | undefined, b: DurationBounds): string {
  const text = given ?? b.default;
  const ms = durationMs(text);
  const max = durationMs(b.max)!;
  if (ms === null) {
    const why = /^P[^T]*[YM]/.test(text)
      ? 'years and months have no fixed length; give days (P30D) or weeks instead'
      : 'expected an ISO-8601 duration such as PT30M, PT1H30M, P2D or P1W';
    throw fail('INVALID_DURATION', `${field} '${text}' is not a duration this API takes: ${why}`, { field });
  }
  if (ms <= 0 || ms > max)
    throw fail('INVALID_DURATION', `${field} must be more than zero and at most ${b.max} (got ${text})`, {
      field,
      max: b.max,
    });
  return text;
}

export const DURATIONS = {
  maxRuntimeDuration: { default: 'P1D', max: 'P7D' },
  maxQueuedDuration: { default: 'P3D', max: 'P7D' },
  terminationGracePeriodDuration: { default: 'PT30S', max: 'PT1H' },
} as const satisfies Record<string, DurationBounds>;

import { durationMs } from '@nvcf/contracts';
import { fail } from '@nvcf/errors';

export { durationMs };

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

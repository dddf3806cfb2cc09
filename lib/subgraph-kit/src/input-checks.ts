import { fail } from '@nvcf/errors';
import { inputLimit } from './input-limits.js';
import { jsonExtent } from './json-extent.js';

/**
 * A name's rule (functions and tasks alike): within its input limit's length, no control
 * characters. The gateway and the subgraph refuse a bad length before any resolver runs; this
 * check stays for in-process callers.
 */
export function checkName(coordinate: string, name: string): void {
  const { minLength, maxLength } = inputLimit(coordinate);
  if (name.length < minLength! || name.length > maxLength!)
    throw fail('BAD_USER_INPUT', `name must be ${minLength} to ${maxLength} characters (got ${name.length})`, {
      field: 'name',
    });
  // eslint-disable-next-line no-control-regex -- the check is for control characters
  if (/[\u0000-\u001f]/.test(name))
    throw fail('BAD_USER_INPUT', 'name must not contain control characters', { field: 'name' });
}

/** Helm values (a function's and a task's configuration): a JSON object, stored whole, within a size limit. */
export function checkHelmValues(field: string, value: unknown, maxBytes: number): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw fail('BAD_USER_INPUT', `${field} must be a JSON object of Helm values (got ${got})`, { field });
  }
  const { bytes: size } = jsonExtent({ raw: value }); // no recursion: a value nested 100 000 deep is measured too
  if (size > maxBytes) {
    throw fail(
      'LIMIT_EXCEEDED',
      `${field} is ${size} bytes; the limit is ${maxBytes} bytes. Move large data into the chart or a ConfigMap.`,
      { field, limit: maxBytes, size },
    );
  }
  return value as Record<string, unknown>;
}

import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const here = (file: string) => new URL(file, import.meta.url);

/** The benchmark's TestQuery as the request every gateway gets. */
export const requestBody = () =>
  JSON.stringify({ query: readFileSync(here('test-query.graphql'), 'utf8'), operationName: 'TestQuery' });

/** The response the benchmark expects (equal, field for field, to the expectation in its k6 script). */
export const expectedBody = () => readFileSync(here('expected-response.json'), 'utf8');

// our gateway requires a tenant; the peers ignore the header
export const requestHeaders = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer dev-token-a',
};

let expected: { text: string; value: unknown } | undefined;
/**
 * Whether a response body is the expected answer: byte-equal is the fast path, structural
 * equality the fallback (gateways may order keys or add extensions without being wrong).
 */
export function isExpectedAnswer(body: string): boolean {
  expected ??= { text: expectedBody(), value: JSON.parse(expectedBody()) };
  if (body === expected.text) return true;
  try {
    const { extensions: _, ...rest } = JSON.parse(body) as Record<string, unknown>;
    return isDeepStrictEqual(rest, expected.value);
  } catch {
    return false;
  }
}

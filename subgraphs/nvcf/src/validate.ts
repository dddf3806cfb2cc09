import { fail } from '@nvcf/errors';
import { inputLimit, jsonExtent } from '@nvcf/subgraph-kit';
import type { Health, JsonObject } from './model.js';
import type { GpuSpecificationInput } from './generated/resolvers.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// the gateway and the subgraph refuse these before any resolver runs; kept for in-process callers
const NAME = inputLimit('CreateFunctionInput.name');

export function checkName(name: string) {
  if (name.length < NAME.minLength! || name.length > NAME.maxLength!)
    throw fail(
      'BAD_USER_INPUT',
      `name must be ${NAME.minLength} to ${NAME.maxLength} characters (got ${name.length})`,
      { field: 'name' },
    );
  // eslint-disable-next-line no-control-regex -- the check is for control characters
  if (/[\u0000-\u001f]/.test(name))
    throw fail('BAD_USER_INPUT', 'name must not contain control characters', { field: 'name' });
}

export function checkPort(field: string, port: number | null | undefined) {
  if (port == null) return;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw fail('BAD_USER_INPUT', `${field} must be between 1 and 65535 (got ${port})`, { field });
}

export function checkHealth(h: Health | null | undefined) {
  if (!h) return;
  if (!h.uri.startsWith('/'))
    throw fail('BAD_USER_INPUT', `health.uri must start with '/' (got '${h.uri}')`, { field: 'health.uri' });
  checkPort('health.port', h.port);
  if (h.expectedStatusCode != null && (h.expectedStatusCode < 100 || h.expectedStatusCode > 599)) {
    throw fail(
      'BAD_USER_INPUT',
      `health.expectedStatusCode must be an HTTP status 100-599 (got ${h.expectedStatusCode})`,
      { field: 'health.expectedStatusCode' },
    );
  }
}

/** What checkSpec reads of a GpuSpecificationInput. */
export type SpecInput = Pick<
  GpuSpecificationInput,
  'gpu' | 'instanceType' | 'minInstances' | 'maxInstances' | 'maxRequestConcurrency'
>;

export function checkBounds(where: string, min: number, max: number) {
  if (!Number.isInteger(min) || min < 0)
    throw fail('BAD_USER_INPUT', `${where}.minInstances must be ≥ 0 (got ${min})`, { field: `${where}.minInstances` });
  if (!Number.isInteger(max) || max < 1)
    throw fail('BAD_USER_INPUT', `${where}.maxInstances must be > 0 (got ${max})`, { field: `${where}.maxInstances` });
  if (min > max)
    throw fail('BAD_USER_INPUT', `${where}.minInstances (${min}) must not exceed maxInstances (${max})`, {
      field: `${where}.minInstances`,
    });
}

export function checkSpec(where: string, s: SpecInput) {
  if (!s.gpu.trim()) throw fail('BAD_USER_INPUT', `${where}.gpu must not be empty`, { field: `${where}.gpu` });
  if (!s.instanceType.trim())
    throw fail('BAD_USER_INPUT', `${where}.instanceType must not be empty`, { field: `${where}.instanceType` });
  checkBounds(where, s.minInstances, s.maxInstances);
  const c = s.maxRequestConcurrency;
  if (c != null && (!Number.isInteger(c) || c < 1 || c > 1024)) {
    throw fail('BAD_USER_INPUT', `${where}.maxRequestConcurrency must be between 1 and 1024 (got ${c})`, {
      field: `${where}.maxRequestConcurrency`,
    });
  }
}

/** Helm values: a JSON object, stored whole, within a size limit. */
export function checkConfiguration(field: string, value: unknown, maxBytes: number): JsonObject {
  if (!isObject(value)) {
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
  return value;
}

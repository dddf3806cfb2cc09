import { fail } from '@nvcf/errors';
import type { Health } from './model.js';
import type { GpuSpecificationInput } from './generated/resolvers.js';

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

import { fail } from '@nvcf/errors';
import { inputLimit } from './input-limits.js';

/**
 * The record a non-null reference names (a version's function, an instance's cluster), or the
 * field fails: a missing one means the store lost integrity. The plain Error is logged and masked
 * as INTERNAL_SERVER_ERROR, as GraphQL's own "Cannot return null for non-nullable field" was.
 */
export async function required<T>(
  what: string,
  record: Promise<T | null | undefined> | T | null | undefined,
): Promise<T> {
  const r = await record;
  if (r == null) throw new Error(`${what} does not exist`);
  return r;
}

/**
 * A `field(ids: [ID!]!)` list read: the rows of `ids` in the order asked, through `loadMany`. A
 * failed batch (the store down) fails the field: an Error entry read as "no such row" would hide
 * an outage. The id bound is the field's input limit, which the plugin enforces before any
 * resolver runs; it is checked again here for callers that are not a GraphQL request.
 */
export async function loadByIds<T>(
  field: string,
  loader: { loadMany(ids: readonly string[]): Promise<(T | Error)[]> },
  ids: readonly string[],
): Promise<T[]> {
  const max = inputLimit(`Query.${field}(ids:)`).maxItems!;
  if (ids.length > max)
    throw fail('LIMIT_EXCEEDED', `${field} takes at most ${max} ids (got ${ids.length}); ask in pages`, {
      field: 'ids',
      limit: max,
    });
  return (await loader.loadMany(ids)).map((r) => {
    if (r instanceof Error) throw r;
    return r;
  });
}

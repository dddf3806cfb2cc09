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

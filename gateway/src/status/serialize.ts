import type { ExecutionResult } from 'graphql';

const serialized = new WeakMap<object, string>();

/**
 * A status event's result as JSON, computed once: identical subscriptions share one result
 * object per event (ResultCache), so a thousand subscribers cost one stringify, not a thousand.
 */
export function serializedResult(result: ExecutionResult): string {
  let s = serialized.get(result);
  if (s === undefined) serialized.set(result, (s = JSON.stringify(result)));
  return s;
}

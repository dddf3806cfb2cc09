export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

/** Thrown from a check to stop waiting at once: the condition can no longer come true. */
export class GiveUp extends Error {
  override name = 'GiveUp';
}

/** Polls until `check` returns a truthy value (or stops throwing); never a blind sleep. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitUntil<T>(
  check: () => T | Promise<T>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<Truthy<T>> {
  const { timeoutMs = 15_000, intervalMs = 25, what = 'condition' } = opts;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as Truthy<T>;
      last = v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    if (Date.now() > deadline)
      throw new WaitTimeout(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
        { cause: last },
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

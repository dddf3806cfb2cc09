/**
 * Runs `pass` every `everyMs` until stopped; a pass slower than the interval (a loaded store) is
 * not joined by a second one, and a failed pass is reported to `onError` and tried again next time.
 */
export function periodic(
  everyMs: number,
  pass: () => Promise<unknown>,
  onError: (err: unknown) => void,
): { stop(): void } {
  let running = false;
  const t = setInterval(() => {
    if (running) return;
    running = true;
    pass()
      .catch(onError)
      .finally(() => (running = false));
  }, everyMs);
  t.unref();
  return { stop: () => clearInterval(t) };
}

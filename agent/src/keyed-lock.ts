/** Runs tasks for the same key one after another (create, then update, of one instance). */
export function keyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(task, task);
    const settled = run.catch(() => undefined);
    tails.set(key, settled);
    // settled never rejects (caught above): nothing to handle
    void settled.then(() => {
      if (tails.get(key) === settled) tails.delete(key);
    });
    return run;
  };
}

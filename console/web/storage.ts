/**
 * localStorage under a prefix: the IDE and the console share the gateway's origin, and neither
 * may read or overwrite the other's keys.
 */
export function namespacedStorage(namespace: string): Storage {
  const key = (k: string) => `${namespace}:${k}`;
  const own = () => Object.keys(localStorage).filter((k) => k.startsWith(`${namespace}:`));
  return {
    get length() {
      return own().length;
    },
    key: (i: number) => own()[i]?.slice(namespace.length + 1) ?? null,
    getItem: (k: string) => localStorage.getItem(key(k)),
    setItem: (k: string, v: string) => localStorage.setItem(key(k), v),
    removeItem: (k: string) => localStorage.removeItem(key(k)),
    clear: () => {
      for (const k of own()) localStorage.removeItem(k);
    },
  };
}

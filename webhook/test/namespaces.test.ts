import { cachedNamespaces, type NamespaceMeta } from '../src/index.js';

const meta: NamespaceMeta = { labels: { a: '1' }, annotations: {} };

describe('the namespace cache', () => {
  it('shares one read between concurrent admissions and reuses it until the TTL passes', async () => {
    let now = 0;
    let reads = 0;
    const read = cachedNamespaces(
      async () => (reads++, meta),
      5000,
      () => now,
    );
    await Promise.all([read('ns'), read('ns'), read('ns')]);
    expect(reads).toBe(1);
    now = 4999;
    await read('ns');
    expect(reads).toBe(1);
    now = 5000;
    await read('ns');
    expect(reads).toBe(2);
  });

  it('does not remember a failure or a missing namespace', async () => {
    let calls = 0;
    const read = cachedNamespaces(async () => {
      calls++;
      if (calls === 1) throw new Error('down');
      return calls === 2 ? null : meta;
    }, 60_000);
    await expect(read('ns')).rejects.toThrow('down');
    await expect(read('ns')).resolves.toBeNull();
    await expect(read('ns')).resolves.toEqual(meta);
    await expect(read('ns')).resolves.toEqual(meta);
    expect(calls).toBe(3);
  });
});

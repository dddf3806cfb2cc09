import { WrittenKeys } from '../src/index.js';

describe('WrittenKeys', () => {
  it('remembers the keys marked, and forgets the oldest beyond its bound', () => {
    const keys = new WrittenKeys(3);
    expect(keys.has('a')).toBe(false);
    for (const k of ['a', 'b', 'c']) keys.add(k);
    keys.add('a'); // marked again: still the oldest
    expect(['a', 'b', 'c'].map((k) => keys.has(k))).toEqual([true, true, true]);
    keys.add('d');
    expect(['a', 'b', 'c', 'd'].map((k) => keys.has(k))).toEqual([false, true, true, true]);
  });

  it('writes a key whole until a whole write of it is stored, then only what changes', async () => {
    const keys = new WrittenKeys();
    const writes: string[] = [];
    const failing = () => Promise.reject(new Error('timed out'));
    await expect(keys.write('i-1', failing, async () => void writes.push('changing'))).rejects.toThrow('timed out');
    await keys.write(
      'i-1',
      async () => void writes.push('whole'),
      async () => void writes.push('changing'),
    );
    await keys.write(
      'i-1',
      async () => void writes.push('whole'),
      async () => void writes.push('changing'),
    );
    expect(writes).toEqual(['whole', 'changing']);
  });
});

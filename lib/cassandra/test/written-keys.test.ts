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
});

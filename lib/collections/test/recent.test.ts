import { RecentMap, RecentSet } from '../src/index.js';

describe('RecentMap', () => {
  it('keeps the newest max entries, forgetting the oldest first', () => {
    const m = new RecentMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) m.set(k, i);
    expect(m.size).toBe(3);
    expect(m.has('a')).toBe(false);
    expect([m.get('b'), m.get('c'), m.get('d')]).toEqual([1, 2, 3]);
    m.set('e', 4);
    expect(m.has('b')).toBe(false);
    expect(m.has('c')).toBe(true);
  });

  it('keeps a key set again in its first place, with its new value', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10);
    expect(m.get('a')).toBe(10);
    m.set('c', 3); // 'a' was first
    expect(m.has('a')).toBe(false);
    expect([m.get('b'), m.get('c')]).toEqual([2, 3]);
  });

  it('never forgets a key set again after a delete because of its older slot', () => {
    const m = new RecentMap<string, number>(3);
    m.set('a', 1); // slot 0
    m.delete('a');
    m.set('a', 2).set('b', 3); // slots 1 and 2: slot 0 still names 'a'
    m.set('c', 4); // slot 0 again: 'a' lives in slot 1 now, so it stays
    expect([m.get('a'), m.get('b'), m.get('c')]).toEqual([2, 3, 4]);
    m.set('d', 5); // slot 1: now 'a' goes
    expect(m.has('a')).toBe(false);
    expect([m.get('b'), m.get('c'), m.get('d')]).toEqual([3, 4, 5]);
  });

  it('never holds more than max, whatever is deleted and set again', () => {
    const m = new RecentMap<number, number>(5);
    for (let i = 0; i < 1_000; i++) {
      m.set(i % 13, i);
      if (i % 3 === 0) m.delete((i * 7) % 13);
      expect(m.size).toBeLessThanOrEqual(5);
    }
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new RecentMap(0)).toThrow(RangeError);
    expect(() => new RecentMap(1.5)).toThrow(/positive integer/);
  });

  it('starts over when cleared', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    m.clear();
    expect(m.size).toBe(0);
    m.set('c', 3).set('d', 4);
    expect([m.get('c'), m.get('d')]).toEqual([3, 4]);
  });
});

describe('RecentSet', () => {
  it('remembers the newest max members', () => {
    const s = new RecentSet<number>(2);
    s.add(1).add(2).add(1).add(3);
    expect([s.has(1), s.has(2), s.has(3)]).toEqual([false, true, true]);
    expect(s.delete(2)).toBe(true);
    expect(s.size).toBe(1);
  });
});

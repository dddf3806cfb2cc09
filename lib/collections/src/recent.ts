/**
 * A map that keeps the `max` entries set most recently (by first set: setting a key again keeps
 * its place), forgetting the oldest. Every operation is O(1): the entries' order is a ring of
 * slots, not the Map's own, because taking a Map's or a Set's first key after many deletions walks
 * past every deleted slot since it was last compacted, which at status-stream rates made a
 * reader's ack bookkeeping cost more than its work.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, { value: V; slot: number }>();
  private readonly ring: (K | undefined)[];
  private next = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`RecentMap: max must be a positive integer (got ${max})`);
    this.ring = new Array<K | undefined>(max);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V): this {
    const entry = this.entries.get(key);
    if (entry) {
      entry.value = value;
      return this;
    }
    const slot = this.next;
    const old = this.ring[slot];
    // the slot's key goes unless it was deleted (and maybe set again, into a slot of its own) since
    if (old !== undefined && this.entries.get(old)?.slot === slot) this.entries.delete(old);
    this.ring[slot] = key;
    this.next = (slot + 1) % this.max;
    this.entries.set(key, { value, slot });
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.ring.fill(undefined);
    this.next = 0;
  }
}

/** A set that keeps the `max` members added most recently, forgetting the oldest; O(1) like RecentMap. */
export class RecentSet<T> {
  private readonly members: RecentMap<T, true>;

  constructor(max: number) {
    this.members = new RecentMap(max);
  }

  get size(): number {
    return this.members.size;
  }

  has(value: T): boolean {
    return this.members.has(value);
  }

  add(value: T): this {
    this.members.set(value, true);
    return this;
  }

  delete(value: T): boolean {
    return this.members.delete(value);
  }
}

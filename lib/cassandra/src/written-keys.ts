import { RecentSet } from '@nvcf/collections';

/** Keys remembered by default: a fleet's instances, at a few dozen bytes each. */
const DEFAULT_MAX = 65_536;

/**
 * The rows whose never-changing columns this process has stored, the newest `max` of them.
 *
 * A status row carries columns that never change for its key (the instance's tenant, function,
 * specification) beside the ones every event changes. The unchanging ones are the indexed ones, and
 * each write that names an indexed column updates its index: writing them with every event of an
 * instance made the index updates most of what a status write cost Cassandra. So a store writes them
 * with the first event of a key it applies (`has` false), marks the key once that write is stored,
 * and writes only what changes after that. A key forgotten (the oldest go first, and all of them with
 * the process) is written whole again, which is harmless: the values are the same.
 */
export class WrittenKeys {
  private readonly keys: RecentSet<string>;

  constructor(max = DEFAULT_MAX) {
    this.keys = new RecentSet(max);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /**
   * Writes `key`'s row: `whole` (every column) the first time, and `key` is marked once it is
   * stored; `changing` (only what changes) after that.
   */
  async write(key: string, whole: () => Promise<void>, changing: () => Promise<void>): Promise<void> {
    if (this.keys.has(key)) return changing();
    await whole();
    this.add(key);
  }

  /** Marks `key` as stored whole; call it once its write has succeeded. */
  add(key: string): void {
    this.keys.add(key);
  }
}

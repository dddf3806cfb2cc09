import { randomUUID } from 'node:crypto';
import type { TaskStore } from '../src/index.js';
import { queuedTask } from './fixtures.js';

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

export function taskStoreContract(name: string, make: () => Promise<TaskStore>) {
  describe(`${name}: tasks`, () => {
    let store: TaskStore;
    // tenants of their own: a shared keyspace keeps other runs' tasks
    const a = `nca-a-${randomUUID()}`;
    const b = `nca-b-${randomUUID()}`;
    beforeAll(async () => {
      store = await make();
    });
    afterAll(() => store.dispose());

    it('stores a task and reads it back whole; an unknown id is null', async () => {
      const t = queuedTask(randomUUID(), a, at(0));
      await store.create(t);
      expect(await store.get([t.id, 'missing'])).toEqual([t, null]);
    });

    it('lists a tenant newest first, in pages, filtered by status, never another tenant', async () => {
      const mine = [1, 2, 3, 4, 5].map((n) => queuedTask(randomUUID(), b, at(n)));
      for (const t of mine) await store.create(t);
      await store.create(queuedTask(randomUUID(), a, at(9)));
      const first = await store.list(b, { status: null, limit: 2, after: null });
      expect(first.map((t) => t.id)).toEqual([mine[4].id, mine[3].id]);
      const next = await store.list(b, { status: null, limit: 10, after: first[1] });
      expect(next.map((t) => t.id)).toEqual([mine[2].id, mine[1].id, mine[0].id]);

      const canceled = { ...mine[1], status: 'CANCELED' as const, seq: 2 };
      expect(await store.replace(1, canceled)).toBe(true);
      expect((await store.list(b, { status: 'CANCELED', limit: 10, after: null })).map((t) => t.id)).toEqual([
        mine[1].id,
      ]);
      expect(await store.list(b, { status: 'QUEUED', limit: 10, after: null })).toHaveLength(4);
    });

    it('replaces by compare-and-set on seq: of two writers from the same read, one wins', async () => {
      const t = queuedTask(randomUUID(), a, at(20));
      await store.create(t);
      const results = await Promise.all([
        store.replace(1, { ...t, status: 'CANCELED', seq: 2 }),
        store.replace(1, { ...t, status: 'LAUNCHED', seq: 2 }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const [now] = await store.get([t.id]);
      expect(now!.status).toBe(results[0] ? 'CANCELED' : 'LAUNCHED');
      expect(await store.replace(1, { ...t, status: 'ERRORED', seq: 2 })).toBe(false);
    });

    it('lists open tasks of every tenant, and no ended one', async () => {
      const open = queuedTask(randomUUID(), a, at(30));
      const ended = queuedTask(randomUUID(), b, at(31));
      await store.create(open);
      await store.create(ended);
      await store.replace(1, { ...ended, status: 'COMPLETED', seq: 2 });
      const ids = (await store.listOpen()).map((t) => t.id);
      expect(ids).toContain(open.id);
      expect(ids).not.toContain(ended.id);
    });

    it('lists the tasks with a transition not announced, ended ones too, until it is announced', async () => {
      const created = { ...queuedTask(randomUUID(), a, at(40)), announcedSeq: 0 };
      const ended = { ...queuedTask(randomUUID(), b, at(41)), announcedSeq: 1 };
      const legacy = queuedTask(randomUUID(), a, at(42));
      for (const t of [created, ended, legacy]) await store.create(t);
      const canceled = { ...ended, status: 'CANCELED' as const, seq: 2 };
      await store.replace(1, canceled);
      const listed = async () => (await store.listUnannounced()).map((t) => t.id);
      expect(await listed()).toEqual(expect.arrayContaining([created.id, ended.id]));
      expect(await listed()).not.toContain(legacy.id);

      expect(await store.replace(2, { ...canceled, announcedSeq: 2 })).toBe(true);
      expect(await store.replace(1, { ...created, announcedSeq: 1 })).toBe(true);
      expect(await listed()).not.toContain(ended.id);
      expect(await listed()).not.toContain(created.id);
      expect((await store.get([ended.id]))[0]).toMatchObject({ status: 'CANCELED', announcedSeq: 2 });
    });
  });
}

import { EntityFetcher, ENTITY_RETRY, type Execute } from '../../src/status/entities.js';

const prepared = { tenant: 'nca-a', key: 'k', query: 'query', variables: {}, maxBatch: 1000 };
const row = (id: string) => ({ __nvcfEntityId: id, state: 'STARTING' });

describe('EntityFetcher', () => {
  it('asks again for an instance whose row is not stored yet, and answers with it once it is', async () => {
    const asked: string[][] = [];
    let stored = false;
    const execute: Execute = async (_t, _q, v) => {
      const ids = v.__ids as string[];
      asked.push(ids);
      // i-2 is known at once; i-1 only from the third request on (its first event not consumed yet)
      if (asked.length >= 3) stored = true;
      return { data: { __entities: ids.map((id) => (id === 'i-2' || stored ? row(id) : null)) } };
    };
    const f = new EntityFetcher(execute);
    const [a, b] = await Promise.all([f.load(prepared, 'i-1'), f.load(prepared, 'i-2')]);
    expect(a).toEqual(row('i-1'));
    expect(b).toEqual(row('i-2'));
    expect(asked).toEqual([['i-1', 'i-2'], ['i-1'], ['i-1']]);
  });

  it('gives up after a few seconds: the row stays null (the event then carries the error)', async () => {
    const saved = ENTITY_RETRY.missingForMs;
    ENTITY_RETRY.missingForMs = 300;
    try {
      let calls = 0;
      const f = new EntityFetcher(async () => {
        calls++;
        return { data: { __entities: [null] } };
      });
      const started = Date.now();
      expect(await f.load(prepared, 'gone')).toBeNull();
      expect(calls).toBeGreaterThan(1);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      ENTITY_RETRY.missingForMs = saved;
    }
  });

  it('a store still unavailable after the wait fails the event with UNAVAILABLE and how to resume, not an internal error', async () => {
    const saved = ENTITY_RETRY.forMs;
    ENTITY_RETRY.forMs = 300;
    try {
      let calls = 0;
      const f = new EntityFetcher(async () => {
        calls++;
        return { errors: [{ message: 'the database is unavailable right now', extensions: { code: 'UNAVAILABLE' } }] };
      });
      const err = await f.load(prepared, 'i-1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(calls).toBeGreaterThan(1);
      expect(err).toMatchObject({
        extensions: { code: 'UNAVAILABLE' },
        message: expect.stringContaining('subscribe again with after = the last cursor you received'),
      });
    } finally {
      ENTITY_RETRY.forMs = saved;
    }
  });
});

describe('EntityFetcher batches', () => {
  it('asks each distinct id of a tick once, in one query, and answers each load with its own row', async () => {
    const asked: string[][] = [];
    const f = new EntityFetcher(async (_t, _q, v) => {
      const ids = v.__ids as string[];
      asked.push(ids);
      return { data: { __entities: ids.map((id) => ({ __nvcfEntityId: id, name: `task ${id}` })) } };
    });
    const [a, b, c] = await Promise.all([
      f.load(prepared, 'task-1'),
      f.load(prepared, 'task-2'),
      f.load(prepared, 'task-1'),
    ]);
    expect(asked).toEqual([['task-1', 'task-2']]);
    expect(a).toMatchObject({ name: 'task task-1' });
    expect(b).toMatchObject({ name: 'task task-2' });
    expect(c).toEqual(a);
  });

  it('splits a batch larger than the list field takes into queries within its limit', async () => {
    const asked: string[][] = [];
    const f = new EntityFetcher(async (_t, _q, v) => {
      const ids = v.__ids as string[];
      asked.push(ids);
      return { data: { __entities: ids.map((id) => ({ __nvcfEntityId: id })) } };
    });
    const ids = Array.from({ length: 5 }, (_, i) => `task-${i}`);
    await Promise.all(ids.map((id) => f.load({ ...prepared, maxBatch: 2 }, id)));
    expect(asked.map((a) => a.length)).toEqual([2, 2, 1]);
  });
});

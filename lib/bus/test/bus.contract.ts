import { fail } from '@nvcf/errors';
import { waitUntil } from '@nvcf/testing';
import { BusClosed, PoisonMessage, type Bus, type StreamSpec } from '../src/index.js';

const work: StreamSpec = {
  name: 'ContractWork',
  subjects: ['CW.>'],
  retention: 'workqueue',
  duplicateWindowMs: 60_000,
};
const log: StreamSpec = { name: 'ContractLog', subjects: ['CL.>'], retention: 'limits', duplicateWindowMs: 60_000 };

/** The bus contract: every implementation must pass it unchanged. */
export function busContract(name: string, make: () => Promise<Bus>) {
  describe(`${name}: bus`, () => {
    let bus: Bus;
    let n = 0;
    const uniq = () => `${Date.now().toString(36)}${n++}`;
    beforeEach(async () => {
      bus = await make();
      await bus.ensureStreams([work, log]);
    });
    afterEach(async () => bus.dispose());

    it('delivers each message once to a durable and acks on success', async () => {
      const id = uniq();
      const seen: string[] = [];
      await bus.consume<{ v: string }>(
        { stream: work.name, durable: `d${id}`, filterSubject: `CW.${id}` },
        async (m) => {
          seen.push(m.data.v);
        },
      );
      await bus.publish(`CW.${id}`, { v: 'a' });
      await bus.publish(`CW.${id}`, { v: 'b' });
      await bus.publish(`CW.other${id}`, { v: 'not mine' });
      await waitUntil(() => seen.length >= 2);
      expect(seen.sort()).toEqual(['a', 'b']);
    });

    it('redelivers after a handler failure, with a higher delivery count', async () => {
      const id = uniq();
      const counts: number[] = [];
      await bus.consume(
        { stream: work.name, durable: `d${id}`, filterSubject: `CW.${id}`, backoffMs: [50] },
        async (m) => {
          counts.push(m.deliveryCount);
          if (m.deliveryCount < 3) throw new Error('temporary');
        },
      );
      await bus.publish(`CW.${id}`, { v: 1 });
      await waitUntil(() => counts.length >= 3);
      expect(counts.slice(0, 3)).toEqual([1, 2, 3]);
    });

    it('dead-letters a poison message at once, with why, and goes on with the next ones', async () => {
      const id = uniq();
      const durable = `d${id}`;
      const seen: number[] = [];
      await bus.consume<{ v: number }>(
        { stream: work.name, durable, filterSubject: `CW.${id}`, backoffMs: [20] },
        async (m) => {
          seen.push(m.data.v);
          if (m.data.v === 1) throw new PoisonMessage('bad payload');
        },
      );
      const first = await bus.publish(`CW.${id}`, { v: 1 });
      await bus.publish(`CW.${id}`, { v: 2 });
      await bus.publish(`CW.${id}`, { v: 3 });
      await waitUntil(() => seen.includes(3));
      // had the poison message been retried, it would show up again within the 20 ms backoff
      await bus.publish(`CW.${id}`, { v: 4 });
      await waitUntil(() => seen.includes(4));
      expect(seen.filter((v) => v === 1)).toHaveLength(1);
      const dead = await bus.deadLetters.list({ stream: work.name, durable });
      expect(dead).toEqual([
        expect.objectContaining({
          stream: work.name,
          subject: `CW.${id}`,
          seq: first.seq,
          durable,
          deliveries: 1,
          error: 'PoisonMessage: bad payload',
          data: JSON.stringify({ v: 1 }),
        }),
      ]);
      expect(await bus.deadLetters.get(dead[0].id)).toEqual(dead[0]);
    });

    it('gives up on a message failing for its own reason on its maxDeliver-th delivery, into the dead-letter stream', async () => {
      const id = uniq();
      const durable = `d${id}`;
      const counts: number[] = [];
      await bus.consume<{ v: number }>(
        { stream: work.name, durable, filterSubject: `CW.${id}`, backoffMs: [20], maxDeliver: 3 },
        async (m) => {
          counts.push(m.deliveryCount);
          throw new TypeError('a handler bug');
        },
      );
      await bus.publish(`CW.${id}`, { v: 1 });
      await waitUntil(async () => (await bus.deadLetters.list({ stream: work.name, durable })).length === 1);
      expect(counts).toEqual([1, 2, 3]);
      const [dead] = await bus.deadLetters.list({ stream: work.name, durable });
      expect(dead).toMatchObject({ deliveries: 3, error: 'failed 3 times; last: TypeError: a handler bug' });
      // given up on: not delivered again (the next message, failing too, counts from 1 on its own)
      await bus.publish(`CW.${id}`, { v: 2 });
      await waitUntil(() => counts.length >= 4);
      expect(counts.slice(0, 4)).toEqual([1, 2, 3, 1]);
    });

    it('waits out an outage far longer than maxDeliver allows: no delivery counted, nothing dead-lettered', async () => {
      const id = uniq();
      const durable = `d${id}`;
      let down = true;
      let attempts = 0;
      let concurrent = 0;
      let maxConcurrent = 0;
      const handled: { v: number; deliveryCount: number }[] = [];
      await bus.consume<{ v: number }>(
        {
          stream: work.name,
          durable,
          filterSubject: `CW.${id}`,
          backoffMs: [10],
          maxDeliver: 2,
          outageBackoff: { initialMs: 20, maxMs: 80 },
        },
        async (m) => {
          attempts++;
          concurrent++;
          maxConcurrent = Math.max(maxConcurrent, concurrent);
          try {
            await new Promise((r) => setTimeout(r, 2));
            if (down) throw fail('UNAVAILABLE', 'the database is unavailable right now; retry in a few seconds');
            handled.push({ v: m.data.v, deliveryCount: m.deliveryCount });
          } finally {
            concurrent--;
          }
        },
      );
      for (let v = 1; v <= 5; v++) await bus.publish(`CW.${id}`, { v });
      await waitUntil(() => attempts >= 10, { what: 'probes during the outage' });
      const probing = maxConcurrent;
      // the outage outlasts what maxDeliver × backoff would have allowed many times over
      await new Promise((r) => setTimeout(r, 600));
      down = false;
      await waitUntil(() => handled.length === 5, { what: 'every message once the store is back' });
      expect(handled.map((h) => h.v).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(handled.every((h) => h.deliveryCount === 1)).toBe(true);
      expect(await bus.deadLetters.list({ stream: work.name, durable })).toEqual([]);
      // while down, one message at a time probes (the first failures may overlap), with backoff
      expect(probing).toBeLessThanOrEqual(5);
      expect(attempts).toBeLessThan(60);
    });

    it('replays a dead letter to its subject, as it was or as a fixed copy, and removes it', async () => {
      const id = uniq();
      const durable = `d${id}`;
      const seen: unknown[] = [];
      await bus.consume<{ v: unknown }>({ stream: log.name, durable, filterSubject: `CL.${id}` }, async (m) => {
        if (typeof m.data.v !== 'number') throw new PoisonMessage('v must be a number');
        seen.push(m.data.v);
      });
      await bus.publish(`CL.${id}`, { v: 'one' });
      await bus.publish(`CL.${id}`, { v: 'two' });
      await waitUntil(async () => (await bus.deadLetters.list({ stream: log.name, durable })).length === 2);
      const [a, b] = await bus.deadLetters.list({ stream: log.name, durable });
      await bus.deadLetters.replay(a.id, { data: JSON.stringify({ v: 1 }) });
      await waitUntil(() => seen.includes(1));
      expect(await bus.deadLetters.list({ stream: log.name, durable })).toEqual([b]);
      // as it was: dead-lettered again, as a new letter
      await bus.deadLetters.replay(b.id);
      await waitUntil(async () => (await bus.deadLetters.list({ stream: log.name, durable }))[0]?.id !== b.id);
      const again = await bus.deadLetters.list({ stream: log.name, durable });
      expect(again).toEqual([
        expect.objectContaining({ data: JSON.stringify({ v: 'two' }), error: 'PoisonMessage: v must be a number' }),
      ]);
      expect(await bus.deadLetters.purge({ stream: log.name })).toBe(1);
      expect(await bus.deadLetters.list({ stream: log.name, durable })).toEqual([]);
      expect(seen).toEqual([1]);
    });

    it('drops a duplicate message id inside the window', async () => {
      const id = uniq();
      const a = await bus.publish(`CL.${id}`, { v: 1 }, { msgId: `m-${id}` });
      const b = await bus.publish(`CL.${id}`, { v: 1 }, { msgId: `m-${id}` });
      expect(a.duplicate).toBe(false);
      expect(b.duplicate).toBe(true);
      expect(b.seq).toBe(a.seq);
    });

    it('gives unacked messages to the next consumer of the same durable', async () => {
      const id = uniq();
      let release!: () => void;
      const first = await bus.consume(
        { stream: work.name, durable: `d${id}`, filterSubject: `CW.${id}`, ackWaitMs: 1000 },
        () =>
          new Promise<void>((r) => {
            release = r;
          }),
      );
      await bus.publish(`CW.${id}`, { v: 'kept' });
      await waitUntil(() => release);
      await first.stop(); // the agent dies holding the message
      const seen: string[] = [];
      await bus.consume<{ v: string }>(
        { stream: work.name, durable: `d${id}`, filterSubject: `CW.${id}`, ackWaitMs: 1000 },
        async (m) => {
          seen.push(m.data.v);
        },
      );
      await waitUntil(() => seen.length > 0, { timeoutMs: 20_000 });
      expect(seen).toEqual(['kept']);
      release();
    });

    it("splits a durable's work between two consumers bound to it, each message once", async () => {
      const id = uniq();
      const seen = new Map<string, number[]>([
        ['a', []],
        ['b', []],
      ]);
      const bind = (who: string) =>
        bus.consume<{ v: number }>(
          { stream: work.name, durable: `d${id}`, filterSubject: `CW.${id}`, maxAckPending: 4 },
          async (m) => {
            seen.get(who)!.push(m.data.v);
            await new Promise((r) => setTimeout(r, 5)); // long enough for the other to be asked
          },
        );
      await bind('a');
      await bind('b');
      const sent = Array.from({ length: 40 }, (_, i) => i);
      for (const v of sent) await bus.publish(`CW.${id}`, { v });
      await waitUntil(() => seen.get('a')!.length + seen.get('b')!.length >= sent.length, { timeoutMs: 20_000 });
      const all = [...seen.get('a')!, ...seen.get('b')!].sort((x, y) => x - y);
      expect(all).toEqual(sent);
      expect(seen.get('a')!.length).toBeGreaterThan(0);
      expect(seen.get('b')!.length).toBeGreaterThan(0);
    });

    it('starts a new durable at new messages when asked, and resumes an existing one where it was', async () => {
      const id = uniq();
      await bus.publish(`CL.${id}`, { v: 'before' });
      const seen: string[] = [];
      const opts = { stream: log.name, durable: `n${id}`, filterSubject: `CL.${id}`, startAt: 'new' as const };
      const first = await bus.consume<{ v: string }>(opts, async (m) => {
        seen.push(m.data.v);
      });
      await bus.publish(`CL.${id}`, { v: 'after' });
      await waitUntil(() => seen.length >= 1);
      await first.stop();
      await bus.publish(`CL.${id}`, { v: 'while away' });
      await bus.consume<{ v: string }>(opts, async (m) => {
        seen.push(m.data.v);
      });
      await waitUntil(() => seen.length >= 2);
      await bus.publish(`CL.${id}`, { v: 'last' }); // a message after the others: all of them are in by then
      await waitUntil(() => seen.includes('last'));
      expect(seen).toEqual(['after', 'while away', 'last']);
    });

    it('refuses every use after dispose with BusClosed', async () => {
      await bus.dispose();
      await expect(bus.publish(`CL.${uniq()}`, { v: 1 })).rejects.toBeInstanceOf(BusClosed);
      await expect(bus.consume({ stream: work.name, durable: `d${uniq()}` }, async () => {})).rejects.toBeInstanceOf(
        BusClosed,
      );
      await expect(bus.ensureStreams([log])).rejects.toBeInstanceOf(BusClosed);
    });

    it('tails a limits stream in order from a sequence, then live', async () => {
      const id = uniq();
      const acks = [];
      for (let i = 0; i < 5; i++) acks.push(await bus.publish(`CL.${id}.x`, { i }));
      const got: number[] = [];
      const seqs: number[] = [];
      let caughtUp = false;
      const t = await bus.tail<{ i: number }>(
        {
          stream: log.name,
          filterSubject: `CL.${id}.*`,
          fromSeq: acks[2].seq,
          onCaughtUp: () => {
            caughtUp = got.length === 3;
          },
        },
        (m) => {
          got.push(m.data.i);
          seqs.push(m.seq);
        },
      );
      await waitUntil(() => caughtUp, { what: 'caught up after the 3 stored messages' });
      await bus.publish(`CL.${id}.x`, { i: 5 });
      await waitUntil(() => got.length >= 4);
      expect(got).toEqual([2, 3, 4, 5]);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      const info = await bus.streamInfo(log.name);
      expect(info.lastSeq).toBeGreaterThanOrEqual(seqs[3]);
      await t.stop();
    });

    it('tails the last message of every subject, then live ones', async () => {
      const id = uniq();
      await bus.publish(`CL.${id}.a`, { v: 'a1' });
      await bus.publish(`CL.${id}.b`, { v: 'b1' });
      await bus.publish(`CL.${id}.a`, { v: 'a2' });
      const got: string[] = [];
      let caughtUpAfter = -1;
      const t = await bus.tail<{ v: string }>(
        {
          stream: log.name,
          filterSubject: `CL.${id}.*`,
          deliver: 'lastPerSubject',
          onCaughtUp: () => {
            caughtUpAfter = got.length;
          },
        },
        (m) => got.push(m.data.v),
      );
      await waitUntil(() => got.length >= 2 && caughtUpAfter >= 0);
      expect(caughtUpAfter).toBe(2);
      await bus.publish(`CL.${id}.b`, { v: 'b2' });
      await waitUntil(() => got.length >= 3);
      expect(got).toEqual(['b1', 'a2', 'b2']);
      await t.stop();
    });
  });
}

import { GraphQLError, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { TaskStatusEvent } from '@nvcf/contracts';
import { SubscriberFeed, taskStatus, type Feed, type FeedEvent, type FeedSink } from '@nvcf/status-stream';
import { FeedRun } from '../../src/status/run.js';
import { LOOK_AHEAD } from '../../src/status/ahead.js';
import { SchemaWatch } from '../../src/status/schema-watch.js';
import type { StatusResults } from '../../src/status/results.js';
import type { StatusSchema, TrackedSubscription } from '../../src/status/schema.js';
import type { StatusOperation } from '../../src/status/operation.js';

const event = (seq: number): FeedEvent => ({ seq, cursor: `c${seq}` }) as unknown as FeedEvent;

/** A feed whose events are handed over by the test: pulled in order, or pushed to an attached sink. */
function fakeFeed() {
  const queued: FeedEvent[] = [];
  const waiting: ((r: IteratorResult<FeedEvent>) => void)[] = [];
  const failing: ((err: Error) => void)[] = [];
  let sink: FeedSink | null = null;
  let returned = false;
  /** ended: what a pull gets once the queue is empty */
  let ended: { err?: Error } | null = null;
  const feed = {
    tenant: 'nca-a',
    next: () =>
      new Promise<IteratorResult<FeedEvent>>((resolve, reject) => {
        const e = queued.shift();
        if (e) resolve({ done: false, value: e });
        else if (ended?.err) reject(ended.err);
        else if (ended) resolve({ done: true, value: undefined });
        else {
          waiting.push(resolve);
          failing.push(reject);
        }
      }),
    poll: () => queued.shift(),
    return: async () => {
      returned = true;
      return { done: true as const, value: undefined };
    },
    end: (err?: Error) => {
      ended = { err };
      for (const f of failing.splice(0)) if (err) f(err);
      for (const w of waiting.splice(0)) if (!err) w({ done: true, value: undefined });
    },
    attach: (s: FeedSink) => void (sink = s),
    [Symbol.asyncIterator]: () => feed,
  } as unknown as Feed;
  return {
    feed,
    give: (e: FeedEvent) => (sink ? sink.push(e) : (waiting.shift()?.({ done: false, value: e }) ?? queued.push(e))),
    returned: () => returned,
  };
}

/** A served schema a test can "reload": the tracked subscription's end is kept to call. */
function fakeSchema() {
  let tracked: TrackedSubscription | null = null;
  let untracked = 0;
  const schema = {
    track: (sub: TrackedSubscription) => {
      tracked = sub;
      return () => void untracked++;
    },
  } as unknown as StatusSchema;
  return { schema, reload: (err: GraphQLError) => tracked!.end(err), untracked: () => untracked };
}

const results = { of: (fe: FeedEvent): ExecutionResult => ({ data: { seq: fe.seq } }) } as unknown as StatusResults;
const sub = { op: { document: parse('subscription { x }') } as unknown as StatusOperation, variables: {} };
const admitted = {} as GraphQLSchema;
const changed = new GraphQLError('the schema changed', { extensions: { code: 'SCHEMA_CHANGED' } });

describe('a status subscription run', () => {
  it('pulls results in order, and after a reload that drops its selection gives SCHEMA_CHANGED once, then the end', async () => {
    const f = fakeFeed();
    const s = fakeSchema();
    const watch = SchemaWatch.start(f.feed, s.schema, sub, admitted) as SchemaWatch;
    const run = new FeedRun(f.feed, results, watch);
    f.give(event(1));
    expect(await run.events.next()).toEqual({ done: false, value: { result: { data: { seq: 1 } }, cursor: 'c1' } });
    const pending = run.events.next();
    s.reload(changed);
    await expect(pending).rejects.toBe(changed);
    expect(await run.events.next()).toEqual({ done: true, value: undefined });
    expect(s.untracked()).toBe(1);
  });

  it('pushes each result to its sink, stops at a full one until resumed, and a reload ends the sink and the feed', () => {
    const f = fakeFeed();
    const s = fakeSchema();
    const run = new FeedRun(f.feed, results, SchemaWatch.start(f.feed, s.schema, sub, admitted) as SchemaWatch);
    const got: string[] = [];
    const ended: (Error | undefined)[] = [];
    let room = 1;
    const resume = run.push({
      push: (_r, cursor) => (got.push(cursor), --room > 0),
      end: (err) => ended.push(err),
    });
    expect(f.give(event(1))).toBe(false); // the sink is full
    room = 5;
    resume();
    expect(f.give(event(2))).toBe(true);
    expect(got).toEqual(['c1', 'c2']);
    s.reload(changed);
    expect(ended).toEqual([changed]);
    expect(f.returned()).toBe(true);
    expect(f.give(event(3))).toBe(false);
    expect(got).toEqual(['c1', 'c2']);
  });

  /** results that compute until resolved through `pending`, except event 3's, computed at once behind them */
  const slowExceptThird = () => {
    const pending = new Map<number, (r: ExecutionResult) => void>();
    const slow = {
      of: (fe: FeedEvent) =>
        fe.seq === 3 ? { data: { seq: 3 } } : new Promise<ExecutionResult>((r) => pending.set(fe.seq, r)),
    } as unknown as StatusResults;
    return { pending, slow };
  };

  it('takes the events behind a result still computing at once, and delivers them in feed order', async () => {
    const f = fakeFeed();
    const { pending, slow } = slowExceptThird();
    const run = new FeedRun(f.feed, slow, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    const got: string[] = [];
    const ended: (Error | undefined)[] = [];
    run.push({ push: (_r, cursor) => got.push(cursor) > 0, end: (err) => ended.push(err) });
    expect([f.give(event(1)), f.give(event(2)), f.give(event(3))]).toEqual([true, true, true]);
    expect([...pending.keys()]).toEqual([1, 2]);
    f.feed.end(); // the feed's end waits for the results still ahead
    pending.get(2)!({ data: { seq: 2 } });
    await Promise.resolve();
    expect(got).toEqual([]);
    pending.get(1)!({ data: { seq: 1 } });
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['c1', 'c2', 'c3']);
    expect(ended).toEqual([undefined]);
  });

  it('takes a bounded number of events ahead, and the rest once the results before them are delivered', async () => {
    const f = fakeFeed();
    const pending: (() => void)[] = [];
    const slow = {
      of: (fe: FeedEvent) => new Promise<ExecutionResult>((r) => pending.push(() => r({ data: { seq: fe.seq } }))),
    } as unknown as StatusResults;
    const run = new FeedRun(f.feed, slow, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    const got: string[] = [];
    run.push({ push: (_r, cursor) => got.push(cursor) > 0, end: () => {} });
    let taken = 0;
    while (f.give(event(taken + 1))) taken++;
    taken++; // the one refused is still taken: its result is computing
    expect(taken).toBeGreaterThan(1);
    expect(taken).toBeLessThan(1000);
    expect(pending).toHaveLength(taken);
    for (const p of pending.splice(0)) p();
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(taken);
    expect(f.give(event(taken + 1))).toBe(true); // attached again
  });

  it('pulls the events the feed holds while a result computes, and yields them in feed order as they complete', async () => {
    const f = fakeFeed();
    const { pending, slow } = slowExceptThird();
    const run = new FeedRun(f.feed, slow, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    for (let seq = 1; seq <= 4; seq++) f.give(event(seq));
    let first: IteratorResult<{ cursor: string }> | null = null;
    void run.events.next().then((r) => (first = r));
    await new Promise((r) => setImmediate(r));
    // every fetch is out at once: they can share a batch
    expect([...pending.keys()]).toEqual([1, 2, 4]);
    pending.get(4)!({ data: { seq: 4 } });
    pending.get(2)!({ data: { seq: 2 } });
    await new Promise((r) => setImmediate(r));
    expect(first).toBeNull();
    pending.get(1)!({ data: { seq: 1 } });
    await new Promise((r) => setImmediate(r));
    expect(first).toMatchObject({ done: false, value: { cursor: 'c1' } });
    const cursors: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) cursors.push((await run.events.next()).value?.cursor);
    expect(cursors).toEqual(['c2', 'c3', 'c4']);
    expect(pending.size).toBe(3); // nothing computed twice
  });

  it('pulls a bounded number of events ahead, and the rest once those are delivered', async () => {
    const f = fakeFeed();
    const taken: number[] = [];
    const slow = {
      of: (fe: FeedEvent) => (taken.push(fe.seq), Promise.resolve({ data: { seq: fe.seq } })),
    } as unknown as StatusResults;
    const run = new FeedRun(f.feed, slow, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    const total = LOOK_AHEAD + 10;
    for (let seq = 1; seq <= total; seq++) f.give(event(seq));
    const got: string[] = [];
    got.push((await run.events.next()).value!.cursor);
    expect(taken).toHaveLength(LOOK_AHEAD);
    while (got.length < total) got.push((await run.events.next()).value!.cursor);
    expect(got).toEqual(Array.from({ length: total }, (_, i) => `c${i + 1}`));
    expect(taken).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it("pulls the feed's end only after the results ahead of it, and a failed result in its turn", async () => {
    const f = fakeFeed();
    const pending = new Map<number, { resolve: (r: ExecutionResult) => void; reject: (e: Error) => void }>();
    const slow = {
      of: (fe: FeedEvent) =>
        new Promise<ExecutionResult>((resolve, reject) => pending.set(fe.seq, { resolve, reject })),
    } as unknown as StatusResults;
    const run = new FeedRun(f.feed, slow, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    for (let seq = 1; seq <= 3; seq++) f.give(event(seq));
    f.feed.end();
    const first = run.events.next();
    await new Promise((r) => setImmediate(r));
    expect([...pending.keys()]).toEqual([1, 2, 3]);
    pending.get(3)!.resolve({ data: { seq: 3 } });
    pending.get(2)!.resolve({ data: { seq: 2 } });
    pending.get(1)!.resolve({ data: { seq: 1 } });
    expect(await first).toMatchObject({ done: false, value: { cursor: 'c1' } });
    expect(await run.events.next()).toMatchObject({ done: false, value: { cursor: 'c2' } });
    expect(await run.events.next()).toMatchObject({ done: false, value: { cursor: 'c3' } });
    expect(await run.events.next()).toEqual({ done: true, value: undefined });

    const g = fakeFeed();
    const failing = new FeedRun(g.feed, slow, SchemaWatch.start(g.feed, undefined, sub, admitted) as SchemaWatch);
    pending.clear();
    g.give(event(1));
    g.give(event(2));
    const one = failing.events.next();
    await new Promise((r) => setImmediate(r));
    const broken = new Error('execution failed');
    pending.get(2)!.reject(broken);
    pending.get(1)!.resolve({ data: { seq: 1 } });
    expect(await one).toMatchObject({ done: false, value: { cursor: 'c1' } });
    await expect(failing.events.next()).rejects.toBe(broken);
  });

  it('takes nothing ahead for a reader that does not pull: its feed conflates per entity meanwhile', async () => {
    const feed = new SubscriberFeed<TaskStatusEvent, object>(
      'nca-a',
      {},
      { bufferEvents: 4, maxConflated: 100 },
      { cursor: (seq) => `c${seq}`, onClose: () => {}, onDelivered: () => {}, overflow: () => new Error('overflow') },
      taskStatus,
    );
    let seq = 0;
    const offer = (taskId: string) =>
      feed.offer({
        subject: `Status.NVCT.nca-a.${taskId}`,
        seq: ++seq,
        publishedAt: 0,
        data: {
          type: 'task-status',
          ncaId: 'nca-a',
          taskId,
          seq,
          status: 'RUNNING',
          previousStatus: null,
          at: '2026-01-01T00:00:00.000Z',
          message: null,
        },
      });
    const taken: FeedEvent<TaskStatusEvent>[] = [];
    const slow = {
      of: (fe: FeedEvent<TaskStatusEvent>) => (taken.push(fe), Promise.resolve({ data: { seq: fe.seq } })),
    } as unknown as StatusResults;
    const run = new FeedRun(feed, slow, SchemaWatch.start(feed, undefined, sub, admitted) as SchemaWatch);
    for (const t of ['t1', 't2', 't3']) offer(t);
    expect(await run.events.next()).toMatchObject({ value: { cursor: 'c1' } });
    expect(taken).toHaveLength(3); // the snapshot's three, taken together
    // the reader stops pulling while a burst arrives: nothing more is taken or computed
    for (let i = 0; i < 100; i++) offer(`t${(i % 5) + 1}`);
    await new Promise((r) => setImmediate(r));
    expect(taken).toHaveLength(3);
    const cursors: string[] = [];
    // 2 ahead, the 4 the feed queued, then one per task with what it skipped
    for (let i = 0; i < 2 + 4 + 5; i++) cursors.push((await run.events.next()).value!.cursor);
    expect(taken).toHaveLength(3 + 4 + 5);
    expect(taken.slice(7).map((fe) => fe.event.taskId)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(taken.slice(7).every((fe) => fe.lag && fe.lag.skippedEvents > 0)).toBe(true);
    expect(cursors).toEqual(taken.slice(1).map((fe) => fe.cursor));
  });

  it('refuses to start on a selection the schema served now no longer has', () => {
    const f = fakeFeed();
    const schema = { track: () => changed } as unknown as StatusSchema;
    expect(SchemaWatch.start(f.feed, schema, sub, admitted)).toBe(changed);
  });

  it('without a replaceable schema only the feed ends it', async () => {
    const f = fakeFeed();
    const run = new FeedRun(f.feed, results, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
    const pending = run.events.next();
    f.feed.end();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});

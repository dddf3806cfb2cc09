import { GraphQLError, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Feed, FeedEvent, FeedSink } from '@nvcf/status-stream';
import { FeedRun } from '../../src/status/run.js';
import { SchemaWatch } from '../../src/status/schema-watch.js';
import type { StatusResults } from '../../src/status/results.js';
import type { StatusSchema, TrackedSubscription } from '../../src/status/schema.js';
import type { StatusOperation } from '../../src/status/operation.js';

const event = (seq: number): FeedEvent => ({ seq, cursor: `c${seq}` }) as unknown as FeedEvent;

/**
 * A feed whose events are handed over by the test, as SubscriberFeed hands them: pulled in order,
 * or pushed to an attached sink until a push returns false (then queued until attached again).
 */
function fakeFeed() {
  const queued: FeedEvent[] = [];
  const waiting: ((r: IteratorResult<FeedEvent>) => void)[] = [];
  const failing: ((err: Error) => void)[] = [];
  let sink: FeedSink | null = null;
  let returned = false;
  let ended: { err?: Error } | null = null;
  const pushTo = (s: FeedSink, e: FeedEvent) => {
    if (s.push(e)) return true;
    if (sink === s) sink = null;
    return false;
  };
  const feed = {
    tenant: 'nca-a',
    next: () =>
      new Promise<IteratorResult<FeedEvent>>((resolve, reject) => {
        const e = queued.shift();
        if (e) resolve({ done: false, value: e });
        else {
          waiting.push(resolve);
          failing.push(reject);
        }
      }),
    return: async () => {
      returned = true;
      queued.length = 0;
      feed.end();
      return { done: true as const, value: undefined };
    },
    end: (err?: Error) => {
      if (ended) return;
      ended = { err };
      for (const f of failing.splice(0)) if (err) f(err);
      for (const w of waiting.splice(0)) if (!err) w({ done: true, value: undefined });
      if (sink && !queued.length) sink.end(err);
    },
    attach: (s: FeedSink) => {
      sink = s;
      while (sink === s && queued.length) pushTo(s, queued.shift()!);
      if (sink === s && ended) s.end(ended.err);
    },
    [Symbol.asyncIterator]: () => feed,
  } as unknown as Feed;
  return {
    feed,
    give: (e: FeedEvent) =>
      sink ? pushTo(sink, e) : (waiting.shift()?.({ done: false, value: e }) ?? queued.push(e), false),
    /** whether the run takes events now (attached) */
    attached: () => sink !== null,
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

const results = {
  of: (fe: FeedEvent): ExecutionResult => ({ data: { seq: fe.seq } }),
  takesAhead: () => true,
} as unknown as StatusResults;

/** Results the test settles one by one, as remote fetches answer: at most `ahead` held. */
function heldResults(ahead = 64) {
  const pending = new Map<number, { resolve: (r: ExecutionResult) => void; reject: (err: Error) => void }>();
  const results = {
    of: (fe: FeedEvent) => new Promise<ExecutionResult>((resolve, reject) => pending.set(fe.seq, { resolve, reject })),
    takesAhead: (held: number) => held < ahead,
  } as unknown as StatusResults;
  return {
    results,
    answer: (seq: number, r: ExecutionResult = { data: { seq } }) => pending.get(seq)!.resolve(r),
    fail: (seq: number, err: Error) => pending.get(seq)!.reject(err),
  };
}

/** Lets every settled promise's callbacks run. */
const settled = () => new Promise((r) => setImmediate(r));

/** A push run on a fake feed, and what its sink received. */
function pushed(h: ReturnType<typeof heldResults>, room = () => true) {
  const f = fakeFeed();
  const run = new FeedRun(f.feed, h.results, SchemaWatch.start(f.feed, undefined, sub, admitted) as SchemaWatch);
  const got: ExecutionResult[] = [];
  const ended: (Error | undefined)[] = [];
  const resume = run.push({ push: (r) => (got.push(r), room()), end: (err) => ended.push(err) });
  return { f, run, got, ended, resume, seqs: () => got.map((r) => (r.data as { seq: number }).seq) };
}
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

  it("takes events ahead while their results are computed, and delivers them in stream order: a later one's fetch settling first waits", async () => {
    const h = heldResults();
    const p = pushed(h);
    for (const seq of [1, 2, 3]) expect(p.f.give(event(seq))).toBe(true);
    h.answer(3);
    h.answer(2);
    await settled();
    expect(p.got).toEqual([]);
    h.answer(1);
    await settled();
    expect(p.seqs()).toEqual([1, 2, 3]);
  });

  it('an error result in the middle is delivered in its place; a failed computation ends the run after the results before it', async () => {
    const h = heldResults();
    const p = pushed(h);
    for (const seq of [1, 2, 3, 4]) p.f.give(event(seq));
    const failedFetch = { data: { instanceStatusChanged: null }, errors: [new GraphQLError('icms is down')] };
    h.answer(2, failedFetch);
    h.answer(4);
    h.fail(3, new Error('the result could not be built'));
    h.answer(1);
    await settled();
    expect(p.got).toEqual([{ data: { seq: 1 } }, failedFetch]);
    expect(p.ended).toEqual([new Error('the result could not be built')]);
    expect(p.f.give(event(5))).toBe(false);
  });

  it('stops taking events at its bound, and takes more as the oldest is delivered', async () => {
    const h = heldResults(2);
    const p = pushed(h);
    expect(p.f.give(event(1))).toBe(true);
    expect(p.f.give(event(2))).toBe(false); // two held: the feed queues (and past its buffer, conflates)
    expect(p.f.attached()).toBe(false);
    p.f.give(event(3));
    h.answer(1);
    await settled();
    // one delivered, room again: the feed hands over what it queued meanwhile
    expect(p.seqs()).toEqual([1]);
    expect(p.f.attached()).toBe(false); // 2 and 3 held: at the bound again
    h.answer(2);
    h.answer(3);
    await settled();
    expect(p.seqs()).toEqual([1, 2, 3]);
    expect(p.f.attached()).toBe(true);
  });

  it('a full sink holds the settled results until resumed, then delivers them in order', async () => {
    const h = heldResults();
    let room = 1;
    const p = pushed(h, () => --room > 0);
    for (const seq of [1, 2, 3]) p.f.give(event(seq));
    h.answer(1);
    h.answer(2);
    h.answer(3);
    await settled();
    expect(p.seqs()).toEqual([1]);
    expect(p.f.give(event(4))).toBe(false); // full: the feed keeps the rest
    room = 10;
    p.resume();
    h.answer(4);
    await settled();
    expect(p.seqs()).toEqual([1, 2, 3, 4]);
  });

  it('a feed that ends while results are held ends the run after them', async () => {
    const h = heldResults();
    const p = pushed(h);
    p.f.give(event(1));
    p.f.give(event(2));
    const gone = new Error('the gateway is shutting down');
    p.f.feed.end(gone);
    expect(p.ended).toEqual([]);
    h.answer(2);
    h.answer(1);
    await settled();
    expect(p.seqs()).toEqual([1, 2]);
    expect(p.ended).toEqual([gone]);
  });

  it('a client that goes away drops what is held: nothing is delivered after', async () => {
    const h = heldResults();
    const p = pushed(h);
    p.f.give(event(1));
    await p.run.events.return!();
    h.answer(1);
    await settled();
    expect(p.got).toEqual([]);
    expect(p.ended).toEqual([undefined]);
    expect(p.f.returned()).toBe(true);
  });
});

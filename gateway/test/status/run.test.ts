import { GraphQLError, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Feed, FeedEvent, FeedSink } from '@nvcf/status-stream';
import { FeedRun } from '../../src/status/run.js';
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
      return { done: true as const, value: undefined };
    },
    end: (err?: Error) => {
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

  it('takes the events behind a result still computing at once, and delivers them in feed order', async () => {
    const f = fakeFeed();
    const pending = new Map<number, (r: ExecutionResult) => void>();
    const slow = {
      of: (fe: FeedEvent) =>
        fe.seq === 3
          ? { data: { seq: 3 } } // computed at once, still behind the two before it
          : new Promise<ExecutionResult>((r) => pending.set(fe.seq, r)),
    } as unknown as StatusResults;
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

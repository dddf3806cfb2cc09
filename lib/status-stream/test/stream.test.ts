import { createMemoryBus, type Bus, type BusMessage, type TailOptions } from '@nvcf/bus';
import { allStreams, Streams, subjects, type StatusEvent, type TaskStatusEvent } from '@nvcf/contracts';
import { encodeCursor } from '@nvcf/auth';
import { codeOf } from '@nvcf/errors';
import { StatusStream, instanceStatus, taskStatus, type Feed, type FeedEvent, type StreamEvent } from '../src/index.js';

const secret = 'cursor-secret';
let clock = 1;
const ev = (instanceId: string, state: StatusEvent['state'], over: Partial<StatusEvent> = {}): StatusEvent => ({
  ncaId: 'nca-a',
  functionId: 'f1',
  versionId: 'v1',
  gpuSpecificationId: 's1',
  clusterId: 'c1',
  instanceId,
  state,
  previousState: null,
  revisionId: 'r1',
  at: new Date().toISOString(),
  clock: clock++,
  ...over,
});
const publish = (bus: Bus, e: StatusEvent) => bus.publish(subjects.status(e.ncaId, e.instanceId), e);
type Tail = (o: TailOptions, h: (m: BusMessage<unknown>) => void) => ReturnType<Bus['tail']>;
/**
 * Another gateway replica on `bus` whose reads lag: `shared` bends its one read of the whole stream,
 * `catchUp` a feed's own read from a cursor (the filtered one); an unbent read is the bus's.
 */
async function laggingReplica(bus: Bus, bent: { shared?: Tail; catchUp?: Tail }) {
  function tail<T>(o: TailOptions, h: (m: BusMessage<T>) => void) {
    const bend = o.filterSubject ? bent.catchUp : bent.shared;
    return bend ? bend(o, h as (m: BusMessage<unknown>) => void) : bus.tail(o, h);
  }
  const replica = new StatusStream({
    bus: Object.assign(Object.create(bus) as Bus, { tail }),
    cursorSecret: secret,
    definition: instanceStatus,
  });
  await replica.start();
  return replica;
}
const take = async <E extends StreamEvent = StatusEvent>(feed: Feed<E>, n: number) => {
  const out: FeedEvent<E>[] = [];
  while (out.length < n) out.push((await feed.next()).value);
  return out;
};

describe('status stream', () => {
  let bus: Bus;
  let stream: StatusStream;
  beforeEach(async () => {
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    stream = new StatusStream({
      bus,
      cursorSecret: secret,
      definition: instanceStatus,
      limits: { bufferEvents: 4, maxConflated: 3, perTenant: 5 },
    });
    await stream.start();
  });
  afterEach(async () => {
    await stream.stop();
    await bus.dispose();
  });

  it('resumes from a cursor: exactly the events after it, then live, no gap or duplicate at the seam', async () => {
    const first = await stream.open('nca-a', { functionId: 'f1' });
    await publish(bus, ev('i1', 'STARTING'));
    const [e1] = await take(first, 1);
    first.end();
    // published while the client was away, and one published during the catch-up
    await publish(bus, ev('i1', 'ACTIVE'));
    await publish(bus, ev('i2', 'STARTING'));
    const resumed = stream.open('nca-a', { functionId: 'f1' }, { after: e1.cursor });
    await publish(bus, ev('i2', 'ACTIVE'));
    const feed = await resumed;
    await publish(bus, ev('i1', 'UPDATING'));
    const got = await take(feed, 4);
    expect(got.map((g) => `${g.event.instanceId}:${g.event.state}`)).toEqual([
      'i1:ACTIVE',
      'i2:STARTING',
      'i2:ACTIVE',
      'i1:UPDATING',
    ]);
    expect(got.map((g) => g.seq)).toEqual([...got.map((g) => g.seq)].sort((a, b) => a - b));
  });

  it('a replica whose read of the stream is behind a resumed client gives it nothing it had', async () => {
    const first = await stream.open('nca-a', { functionId: 'f1' });
    await publish(bus, ev('i2', 'STARTING'));
    await publish(bus, ev('i1', 'STARTING'));
    const had = await take(first, 2);
    first.end();
    // the other replica reads the stream from its start, and only when told: just restarted, or just thawed
    const held: (() => void)[] = [];
    const replica = await laggingReplica(bus, {
      shared: (o, h) => bus.tail({ ...o, fromSeq: 1 }, (m) => void held.push(() => h(m))),
    });
    const catchUpReads = async () => {
      await new Promise((r) => setImmediate(r));
      for (const deliver of held.splice(0)) deliver();
    };
    try {
      const feed = await replica.open('nca-a', { functionId: 'f1' }, { after: had[1].cursor });
      await catchUpReads(); // both events the client has, i2's from before its cursor too
      await publish(bus, ev('i2', 'ACTIVE'));
      await catchUpReads();
      const [next] = await take(feed, 1);
      expect(`${next.event.instanceId}:${next.event.state}`).toBe('i2:ACTIVE');
      expect(next.seq).toBeGreaterThan(had[1].seq);
    } finally {
      await replica.stop();
    }
  });

  it('a catch-up that ends short on a replica behind the shared read still gives every event after the cursor', async () => {
    let had: FeedEvent | undefined;
    // this replica's catch-up reads a stream copy that has nothing after the client's cursor yet
    const replica = await laggingReplica(bus, {
      catchUp: (o, h) => bus.tail(o, (m) => void (m.seq <= had!.seq && h(m))),
    });
    try {
      const first = await stream.open('nca-a', { functionId: 'f1' });
      await publish(bus, ev('i1', 'STARTING'));
      [had] = await take(first, 1);
      first.end();
      // the replica's shared read has these when the client resumes on it; its catch-up has none
      await publish(bus, ev('i2', 'STARTING'));
      await publish(bus, ev('i1', 'ACTIVE'));
      await new Promise((r) => setImmediate(r));
      const feed = await replica.open('nca-a', { functionId: 'f1' }, { after: had.cursor });
      await publish(bus, ev('i2', 'ACTIVE'));
      const got = await take(feed, 3);
      expect(got.map((g) => `${g.event.instanceId}:${g.event.state}`)).toEqual([
        'i2:STARTING',
        'i1:ACTIVE',
        'i2:ACTIVE',
      ]);
      expect(got.every((g) => g.seq > had!.seq)).toBe(true);
    } finally {
      await replica.stop();
    }
  }, 10_000);

  it('refuses forged and foreign cursors, and says which position is oldest when expired', async () => {
    await expect(stream.open('nca-a', { functionId: 'f1' }, { after: 'v1.zz.forged' })).rejects.toMatchObject({
      extensions: { code: 'CURSOR_INVALID' },
    });
    await expect(
      stream.open('nca-a', { functionId: 'f1' }, { after: encodeCursor(secret, 'nca-b', 1) }),
    ).rejects.toMatchObject({ extensions: { code: 'CURSOR_INVALID' } });
    await bus.ensureStreams([{ ...Streams.status, maxMsgs: 3 }]);
    for (let i = 0; i < 6; i++) await publish(bus, ev(`i${i}`, 'STARTING'));
    const err = await stream
      .open('nca-a', { functionId: 'f1' }, { after: encodeCursor(secret, 'nca-a', 1) })
      .catch((e) => e);
    expect(codeOf(err)).toBe('CURSOR_EXPIRED');
    expect(err.extensions.oldestCursor).toBe(encodeCursor(secret, 'nca-a', 3));
    const ok = await stream.open('nca-a', { functionId: 'f1' }, { after: err.extensions.oldestCursor });
    expect((await take(ok, 3)).map((g) => g.event.instanceId)).toEqual(['i3', 'i4', 'i5']);
  });

  it('a snapshot gives the current state of every matching instance, then deltas from the same position', async () => {
    await publish(bus, ev('i1', 'STARTING'));
    await publish(bus, ev('i1', 'ACTIVE'));
    await publish(bus, ev('i2', 'STARTING'));
    await publish(bus, ev('x9', 'ACTIVE', { functionId: 'other' }));
    const feed = await stream.open('nca-a', { functionId: 'f1' }, { snapshot: true });
    await publish(bus, ev('i2', 'ACTIVE'));
    const got = await take(feed, 3);
    expect(got.map((g) => `${g.kind}:${g.event.instanceId}:${g.event.state}`)).toEqual([
      'SNAPSHOT:i1:ACTIVE',
      'SNAPSHOT:i2:STARTING',
      'TRANSITION:i2:ACTIVE',
    ]);
  });

  it('never delivers a stale transition of an instance after a newer one', async () => {
    const feed = await stream.open('nca-a', { instanceId: 'i1' });
    const newer = ev('i1', 'ACTIVE');
    const older = { ...ev('i1', 'STARTING'), clock: newer.clock - 1 };
    await publish(bus, newer);
    await publish(bus, older); // a late duplicate from a slow publisher
    await publish(bus, ev('i1', 'UPDATING'));
    expect((await take(feed, 2)).map((g) => g.event.state)).toEqual(['ACTIVE', 'UPDATING']);
  });

  it("never shows another tenant's events, whatever the filter says", async () => {
    const feed = await stream.open('nca-b', { functionId: 'f1' });
    await publish(bus, ev('i1', 'ACTIVE'));
    await publish(bus, ev('i7', 'ACTIVE', { ncaId: 'nca-b' }));
    expect((await take(feed, 1))[0].event.instanceId).toBe('i7');
  });

  it('a slow subscriber is conflated per instance with a lag marker, then ended with a resumable error', async () => {
    const feed = await stream.open('nca-a', { functionId: 'f1' });
    for (let i = 0; i < 4; i++) await publish(bus, ev(`q${i}`, 'STARTING')); // fills the buffer (4)
    for (const s of ['ACTIVE', 'UPDATING', 'ACTIVE'] as const) await publish(bus, ev('q0', s)); // conflated: 2 skipped
    await publish(bus, ev('q1', 'ACTIVE')); // conflated, none skipped
    const got = await take(feed, 6);
    expect(got.slice(0, 4).every((g) => g.lag === null)).toBe(true);
    expect(got[4].event.instanceId).toBe('q0');
    expect(got[4].event.state).toBe('ACTIVE');
    expect(got[4].lag!.skippedEvents).toBe(2);
    expect(got[4].lag!.resumeAfter).toBe(encodeCursor(secret, 'nca-a', 4));
    expect(got[5].lag).toBeNull();
    // past maxConflated instances pending, the feed ends with LIMIT_EXCEEDED naming where to resume
    for (let i = 0; i < 4; i++) await publish(bus, ev(`z${i}`, 'STARTING'));
    for (let i = 0; i < 4; i++) await publish(bus, ev(`y${i}`, 'STARTING'));
    await take(feed, 4);
    const err = await take(feed, 4).catch((e) => e);
    expect(codeOf(err)).toBe('LIMIT_EXCEEDED');
    expect(err.message).toContain('resubscribe with after');
  });

  it('an attached feed pushes each event as it arrives; one that stops taking gets the rest, conflated, when attached again', async () => {
    const feed = await stream.open('nca-a', { functionId: 'f1' });
    const got: FeedEvent[] = [];
    let taking = true;
    let ended: unknown = 'not ended';
    const sink = {
      push: (e: FeedEvent) => (got.push(e), taking),
      end: (err?: Error) => void (ended = err ?? null),
    };
    feed.attach(sink);
    const published = publish(bus, ev('p0', 'STARTING'));
    expect(got.map((g) => g.event.instanceId)).toEqual(['p0']); // pushed in the publish's own turn, no await
    await published;
    taking = false;
    await publish(bus, ev('p1', 'STARTING')); // taken, and the sink is detached
    for (let i = 2; i < 6; i++) await publish(bus, ev(`p${i}`, 'STARTING')); // queued: fills the buffer (4)
    for (const st of ['ACTIVE', 'UPDATING'] as const) await publish(bus, ev('p2', st)); // conflated: 1 skipped
    expect(got).toHaveLength(2);
    taking = true;
    feed.attach(sink);
    expect(got.map((g) => `${g.event.instanceId}:${g.event.state}`)).toEqual([
      'p0:STARTING',
      'p1:STARTING',
      'p2:STARTING',
      'p3:STARTING',
      'p4:STARTING',
      'p5:STARTING',
      'p2:UPDATING',
    ]);
    expect(got.at(-1)!.lag).toEqual({
      skippedEvents: 1,
      // just before the one event it skipped (p2:ACTIVE)
      resumeAfter: encodeCursor(secret, 'nca-a', got.at(-1)!.seq - 2),
    });
    await publish(bus, ev('p6', 'STARTING')); // attached again: pushed as it comes
    expect(got.at(-1)!.event.instanceId).toBe('p6');
    expect(ended).toBe('not ended');
    feed.end();
    expect(ended).toBeNull();
  });

  it('a detached feed that overflows hands over what it holds, then the resumable error, when attached', async () => {
    const feed = await stream.open('nca-a', { functionId: 'f1' });
    const got: FeedEvent[] = [];
    let ended: unknown = 'not ended';
    const sink = { push: (e: FeedEvent) => (got.push(e), false), end: (err?: Error) => void (ended = err ?? null) };
    feed.attach(sink);
    await publish(bus, ev('o0', 'STARTING')); // taken; detached
    for (let i = 1; i < 5; i++) await publish(bus, ev(`o${i}`, 'STARTING')); // the buffer (4)
    for (let i = 0; i < 4; i++) await publish(bus, ev(`x${i}`, 'STARTING')); // past maxConflated (3): ended
    expect(ended).toBe('not ended'); // detached: told when attached again
    feed.attach({ push: (e) => (got.push(e), true), end: sink.end });
    expect(got.map((g) => g.event.instanceId)).toEqual(['o0', 'o1', 'o2', 'o3', 'o4', 'x0', 'x1', 'x2']);
    expect(codeOf(ended)).toBe('LIMIT_EXCEEDED');
  });

  it('polls what a feed holds without waiting: queued, then conflated; its end is for next to say', async () => {
    const feed = await stream.open('nca-a', { functionId: 'f1' });
    expect(feed.poll()).toBeUndefined();
    for (let i = 0; i < 5; i++) await publish(bus, ev(`q${i}`, 'STARTING')); // the buffer (4), then conflated
    await publish(bus, ev('q4', 'ACTIVE'));
    const polled: FeedEvent[] = [];
    for (let e = feed.poll(); e; e = feed.poll()) polled.push(e);
    expect(polled.map((g) => `${g.event.instanceId}:${g.event.state}`)).toEqual([
      'q0:STARTING',
      'q1:STARTING',
      'q2:STARTING',
      'q3:STARTING',
      'q4:ACTIVE',
    ]);
    expect(polled.at(-1)!.lag?.skippedEvents).toBe(1);
    feed.end();
    expect(feed.poll()).toBeUndefined();
    expect(await feed.next()).toEqual({ done: true, value: undefined });
  });

  it('limits open subscriptions per tenant and counts them', async () => {
    const feeds = await Promise.all(Array.from({ length: 5 }, () => stream.open('nca-a', { functionId: 'f1' })));
    await expect(stream.open('nca-a', { functionId: 'f1' })).rejects.toMatchObject({
      extensions: { code: 'LIMIT_EXCEEDED' },
    });
    expect(stream.metrics.render()).toContain('nvcf_status_subscriptions_open{tenant="nca-a"} 5');
    await feeds[0].return!();
    expect(stream.metrics.openCount('nca-a')).toBe(4);
    await expect(stream.open('nca-a', {})).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('task status stream (the same mechanism, another definition)', () => {
  let bus: Bus;
  let tasks: StatusStream<TaskStatusEvent, { taskId?: string | null }>;
  let instances: StatusStream;
  const seqs = new Map<string, number>();
  const task = (ncaId: string, taskId: string, status: TaskStatusEvent['status']) => {
    const seq = (seqs.get(taskId) ?? 0) + 1;
    seqs.set(taskId, seq);
    const e: TaskStatusEvent = {
      type: 'task-status',
      ncaId,
      taskId,
      seq,
      status,
      previousStatus: null,
      at: new Date().toISOString(),
      message: null,
    };
    return bus.publish(subjects.taskStatus(ncaId, taskId), e);
  };
  const statuses = (events: FeedEvent<TaskStatusEvent>[]) => events.map((f) => `${f.event.taskId}:${f.event.status}`);
  beforeEach(async () => {
    seqs.clear();
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    tasks = new StatusStream({ bus, cursorSecret: secret, definition: taskStatus });
    instances = new StatusStream({ bus, cursorSecret: secret, definition: instanceStatus });
    await tasks.start();
    await instances.start();
  });
  afterEach(async () => {
    await tasks.stop();
    await instances.stop();
    await bus.dispose();
  });

  it("without a taskId a feed has every task of its tenant and nothing of another's", async () => {
    const all = await tasks.open('nca-a', {});
    const one = await tasks.open('nca-a', { taskId: 't2' });
    await task('nca-a', 't1', 'QUEUED');
    await task('nca-b', 't9', 'QUEUED');
    await task('nca-a', 't2', 'QUEUED');
    await task('nca-a', 't1', 'LAUNCHED');
    expect(statuses(await take(all, 3))).toEqual(['t1:QUEUED', 't2:QUEUED', 't1:LAUNCHED']);
    expect(statuses(await take(one, 1))).toEqual(['t2:QUEUED']);
    // another tenant naming a task that is not its own sees nothing of it
    const foreign = await tasks.open('nca-b', { taskId: 't1' });
    await task('nca-a', 't1', 'RUNNING');
    await task('nca-b', 't9', 'LAUNCHED');
    const theirs = await tasks.open('nca-b', {});
    await task('nca-b', 't9', 'RUNNING');
    expect(statuses(await take(theirs, 1))).toEqual(['t9:RUNNING']);
    const pending = foreign.next();
    const settled = await Promise.race([pending.then(() => 'event'), new Promise((r) => setImmediate(r, 'none'))]);
    expect(settled).toBe('none');
    await foreign.return!();
  });

  it('resumes from a cursor with exactly the transitions after it, and snapshots each task', async () => {
    const feed = await tasks.open('nca-a', { taskId: 't1' });
    await task('nca-a', 't1', 'QUEUED');
    const [first] = await take(feed, 1);
    await feed.return!();
    await task('nca-a', 't1', 'LAUNCHED');
    await task('nca-a', 't1', 'RUNNING');
    const resumed = await tasks.open('nca-a', { taskId: 't1' }, { after: first.cursor });
    expect(statuses(await take(resumed, 2))).toEqual(['t1:LAUNCHED', 't1:RUNNING']);
    await task('nca-a', 't2', 'QUEUED');
    const snap = await tasks.open('nca-a', {}, { snapshot: true });
    const got = await take(snap, 2);
    expect(statuses(got)).toEqual(['t1:RUNNING', 't2:QUEUED']);
    expect(got.map((f) => f.kind)).toEqual(['SNAPSHOT', 'SNAPSHOT']);
  });

  it("refuses another stream's cursor, and another tenant's", async () => {
    const feed = await tasks.open('nca-a', {});
    await task('nca-a', 't1', 'QUEUED');
    const [fe] = await take(feed, 1);
    const otherStream = await instances
      .open('nca-a', { instanceId: 'i1' }, { after: fe.cursor })
      .catch((e: unknown) => e);
    expect(codeOf(otherStream)).toBe('CURSOR_INVALID');
    const otherTenant = await tasks.open('nca-b', {}, { after: fe.cursor }).catch((e: unknown) => e);
    expect(codeOf(otherTenant)).toBe('CURSOR_INVALID');
    expect(tasks.metrics.render()).toContain('nvcf_task_status_subscriptions_open{tenant="nca-a"} 1');
  });
});

import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { waitUntil } from '@nvcf/testing';
import { startPrivateNats, type PrivateNats } from '../../../test/services/nats-private.js';
import { createNatsBus, PoisonMessage, type Bus, type StreamSpec } from '../src/index.js';
import { busContract } from './bus.contract.js';

class MissingService extends Error {
  override name = 'MissingService';
}

const url = process.env.NATS_URL;

if (process.env.NVCF_TEST_BACKENDS === 'memory') {
  describe.skip('nats: bus (skipped: NVCF_TEST_BACKENDS=memory runs the in-memory backends only)', () => {
    it('runs the bus contract against NATS JetStream', () => {});
  });
} else if (!url) {
  describe('nats: bus', () => {
    it('has a NATS server to test against', () => {
      // a missing server must not look like a pass: the global setup provides one, or set NATS_URL
      throw new MissingService(
        'NATS_URL is not set: run jest with its global setup (test/services), or set NVCF_TEST_BACKENDS=memory',
      );
    });
  });
} else {
  // the contract makes a new durable per test on the shared server; without this they pile up
  beforeAll(() => deleteIdleConsumers(url, ['ContractWork', 'ContractLog'], 3_600_000));
  busContract('nats', () => createNatsBus({ servers: url }));
  describe('nats: bus across a NATS restart', restartSuite);
  describe("nats: a durable's replicas, and a durable lost on the server", durableLossSuite);
}

function durableLossSuite() {
  const work: StreamSpec = { name: 'LossWork', subjects: ['LW.>'], retention: 'workqueue', duplicateWindowMs: 60_000 };
  // a private server: these tests delete durables, and one shared server is no place for that
  let server: PrivateNats;
  let bus: Bus;
  let jsm: JetStreamManager;
  let nc: NatsConnection;
  beforeAll(async () => {
    server = await startPrivateNats();
    bus = await createNatsBus({ servers: server.url, name: 'durable-loss-test' });
    await bus.ensureStreams([work]);
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await nc?.close();
    await bus?.dispose();
    await server?.[Symbol.asyncDispose]();
  });

  it('creates a durable with the replicas asked for, and applies them to one that exists', async () => {
    const fresh = await bus.consume(
      { stream: work.name, durable: 'LossWork-r1', filterSubject: 'LW.r1', replicas: 1 },
      async () => {},
    );
    // a single server has one replica whatever is asked: what the server echoes is what the bus sent
    expect((await jsm.consumers.info(work.name, 'LossWork-r1')).config.num_replicas).toBe(1);
    await fresh.stop();

    const before = await bus.consume(
      { stream: work.name, durable: 'LossWork-r2', filterSubject: 'LW.r2' },
      async () => {},
    );
    expect((await jsm.consumers.info(work.name, 'LossWork-r2')).config.num_replicas ?? 0).toBe(0); // the stream's
    await before.stop();
    const after = await bus.consume(
      { stream: work.name, durable: 'LossWork-r2', filterSubject: 'LW.r2', replicas: 1 },
      async () => {},
    );
    expect((await jsm.consumers.info(work.name, 'LossWork-r2')).config.num_replicas).toBe(1);
    await after.stop();
  });

  it('a dead letter is kept when its stream does not exist (not created yet, or deleted): the first copy creates it', async () => {
    await expect(jsm.streams.info('DeadLetterStream')).rejects.toMatchObject({ name: 'StreamNotFoundError' });
    await bus.consume({ stream: work.name, durable: 'LossWork-dl', filterSubject: 'LW.dl' }, async () => {
      throw new PoisonMessage('never valid');
    });
    const { seq } = await bus.publish('LW.dl', { id: 'poison' });
    await waitUntil(async () => (await bus.deadLetters.list({ durable: 'LossWork-dl' })).length === 1, {
      what: 'the dead letter, in a stream created for it',
    });
    expect(await bus.deadLetters.list({ durable: 'LossWork-dl' })).toEqual([
      expect.objectContaining({ seq, durable: 'LossWork-dl', error: 'PoisonMessage: never valid' }),
    ]);
  });

  it('a handler that outlives ack wait keeps its message: the server delivers it once', async () => {
    const durable = 'LossWork-slow';
    let calls = 0;
    let finished = false;
    const c = await bus.consume<{ id: string }>(
      { stream: work.name, durable, filterSubject: 'LW.slow', ackWaitMs: 1000, maxAckPending: 4, replicas: 1 },
      async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 3500)); // three and a half ack waits
        finished = true;
      },
    );
    await bus.publish('LW.slow', { id: 'slow' });
    await waitUntil(() => finished, { timeoutMs: 10_000, what: 'the slow handler' });
    await waitUntil(async () => (await jsm.consumers.info(work.name, durable)).num_ack_pending === 0, {
      what: 'the ack',
    });
    const ci = await jsm.consumers.info(work.name, durable);
    // every delivery, redeliveries included, takes a consumer sequence: one means none was redelivered
    expect(ci.delivered.consumer_seq).toBe(1);
    expect(calls).toBe(1);
    await c.stop();
  });

  it("a durable the server refuses to create fails with the server's reason", async () => {
    // a single server refuses more than one replica; an R3 work queue refuses R1 the same way (10134)
    const refused = bus.consume(
      { stream: work.name, durable: 'LossWork-r3', filterSubject: 'LW.r3', replicas: 3 },
      async () => {},
    );
    await expect(refused).rejects.toMatchObject({
      name: 'ConsumerSetupError',
      cause: { code: 10074, message: expect.stringMatching(/replicas > 1 not supported/) },
    });
  });

  it('a durable deleted while consuming is created again, and every pending message is handled once', async () => {
    const durable = 'LossWork-c1';
    const handled = new Map<string, number>();
    // running when the durable goes: their messages come again from the new durable meanwhile
    const slow = new Set(['a0', 'a1', 'a2']);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const c = await bus.consume<{ id: string }>(
      { stream: work.name, durable, filterSubject: 'LW.c1', ackWaitMs: 5000, maxAckPending: 8, replicas: 1 },
      async (m) => {
        handled.set(m.data.id, (handled.get(m.data.id) ?? 0) + 1);
        if (slow.has(m.data.id)) await released;
      },
    );
    const ids = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
    const publishAll = (batch: string[]) => Promise.all(batch.map((id) => bus.publish('LW.c1', { id }, { msgId: id })));
    await publishAll(ids('a'));
    await waitUntil(() => handled.size >= 10, { what: 'the first 10 messages' });
    const { created } = await jsm.consumers.info(work.name, durable);

    await jsm.consumers.delete(work.name, durable); // what losing the only server of an R1 durable looks like
    await publishAll(ids('b')); // while no durable exists: the work queue keeps them
    await waitUntil(
      () =>
        jsm.consumers.info(work.name, durable).then(
          (ci) => ci.created !== created,
          () => false,
        ),
      { timeoutMs: 15_000, what: 'the durable created again' },
    );
    await waitUntil(() => handled.size >= 20, { timeoutMs: 15_000, what: '20 distinct messages' });
    release();
    await waitUntil(
      async () => {
        const ci = await jsm.consumers.info(work.name, durable);
        return ci.num_pending === 0 && ci.num_ack_pending === 0;
      },
      { timeoutMs: 15_000, what: 'all acks on the new durable' },
    );
    expect((await jsm.consumers.info(work.name, durable)).config.num_replicas).toBe(1);
    expect([...handled.keys()].sort()).toEqual([...ids('a'), ...ids('b')].sort());
    expect([...handled.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect((await bus.streamInfo(work.name, { subject: 'LW.c1' })).messages).toBe(0);
    await c.stop();
  });
}

function restartSuite() {
  const work: StreamSpec = {
    name: 'RestartWork',
    subjects: ['RW.>'],
    retention: 'workqueue',
    duplicateWindowMs: 60_000,
  };
  const log: StreamSpec = { name: 'RestartLog', subjects: ['RL.>'], retention: 'limits', duplicateWindowMs: 60_000 };
  let server: PrivateNats;
  let bus: Bus;
  beforeEach(async () => {
    server = await startPrivateNats();
    bus = await createNatsBus({ servers: server.url, name: 'restart-test' });
    await bus.ensureStreams([work, log]);
  });
  afterEach(async () => {
    await bus?.dispose();
    await server?.[Symbol.asyncDispose]();
  });

  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const publishAll = (subject: string, batch: string[]) =>
    Promise.all(batch.map((id) => bus.publish(subject, { id }, { msgId: id })));

  it('a durable consumer handles every message exactly once across a restart', async () => {
    const handled = new Map<string, number>();
    const completed = new Set<string>();
    const afterCompletion: string[] = [];
    // still running while the server restarts: their keepalives and acks must reach the new one
    const slow = new Set(['a5', 'a6', 'a7']);
    let serverBack!: () => void;
    const back = new Promise<void>((r) => (serverBack = r));
    await bus.consume<{ id: string }>(
      { stream: work.name, durable: 'RestartWork-c1', filterSubject: 'RW.c1', ackWaitMs: 5000, maxAckPending: 8 },
      async (m) => {
        const id = m.data.id;
        if (completed.has(id)) afterCompletion.push(id);
        handled.set(id, (handled.get(id) ?? 0) + 1);
        if (slow.has(id)) await back;
        else await new Promise((r) => setTimeout(r, 20)); // keeps more handlers in flight when the server stops
        completed.add(id);
      },
    );

    const before = ids('a', 30);
    await publishAll('RW.c1', before);
    // the same ids again: dedup keeps them out. Before the restart on purpose: a restarted server
    // rebuilds its dedup ids from stored messages, and a workqueue has deleted the acked ones
    await publishAll('RW.c1', before.slice(0, 10));
    await waitUntil(() => handled.size >= 5);
    await server.stop(); // with work in flight and acks not yet sent
    const during = ids('b', 30);
    const publishing = publishAll('RW.c1', during); // retried by the bus until the server is back
    await server.start();
    await publishing;
    serverBack();
    await publishAll('RW.c1', during.slice(0, 10));
    const after = ids('c', 30);
    await publishAll('RW.c1', after);

    await waitUntil(() => handled.size >= 90, { timeoutMs: 30_000, what: '90 distinct messages' });
    // nothing pending or unacked on the server means no redelivery is still to come
    await waitUntil(
      async () => {
        const ci = await consumerInfo(server.url, work.name, 'RestartWork-c1');
        return ci.num_pending === 0 && ci.num_ack_pending === 0;
      },
      { timeoutMs: 30_000, what: 'all acks' },
    );
    expect([...handled.keys()].sort()).toEqual([...before, ...during, ...after].sort());
    expect(afterCompletion).toEqual([]);
    expect([...handled.entries()].filter(([, n]) => n > 1)).toEqual([]);
  });

  it('a tail resumes after a restart without gaps or repeats', async () => {
    const seen: { id: string; seq: number }[] = [];
    const t = await bus.tail<{ id: string }>({ stream: log.name, filterSubject: 'RL.>' }, (m) =>
      seen.push({ id: m.data.id, seq: m.seq }),
    );
    await publishAll('RL.x', ids('a', 10));
    await waitUntil(() => seen.length >= 10);
    await server.restart();
    await publishAll('RL.x', ids('b', 10));
    await waitUntil(() => seen.length >= 20, { timeoutMs: 30_000, what: '20 tailed messages' });
    expect(seen.map((s) => s.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(new Set(seen.map((s) => s.id)).size).toBe(20);
    await t.stop();
  });
}

async function consumerInfo(servers: string, stream: string, durable: string) {
  const nc = await connect({ servers });
  try {
    return await (await jetstreamManager(nc)).consumers.info(stream, durable);
  } finally {
    await nc.close();
  }
}

/** Deletes consumers of `streams` with no pull waiting and no delivery for `idleMs` (other runs' are busy). */
async function deleteIdleConsumers(servers: string, streams: string[], idleMs: number): Promise<void> {
  const nc = await connect({ servers });
  try {
    const jsm = await jetstreamManager(nc);
    for (const stream of streams) {
      const all = await jsm.consumers
        .list(stream)
        .next()
        .catch(() => []);
      for (const ci of all) {
        const active: unknown = ci.delivered.last_active; // typed as nanos, sent as an ISO timestamp
        const last = Date.parse(typeof active === 'string' ? active : ci.created);
        if (ci.num_waiting === 0 && Date.now() - last > idleMs)
          await jsm.consumers.delete(stream, ci.name).catch(() => {});
      }
    }
  } finally {
    await nc.close();
  }
}

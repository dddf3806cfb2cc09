/**
 * The agent's work durables on real NATS when the server loses them: a durable deleted while the
 * agent runs, or while it is stopped, is created again and hands every pending message to the
 * agent exactly once. A private nats-server, because these tests delete durables.
 */
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createNatsBus, type Bus, type Consumer, type Delivery } from '@nvcf/bus';
import {
  allStreams,
  durableName,
  msgIds,
  Streams,
  subjects,
  type CreateInstanceMessage,
  type StatusEvent,
} from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';
import { startPrivateNats, type PrivateNats } from '../../test/services/nats-private.js';
import { createSimulatedCluster, startAgent, type Agent, type SimulatedCluster } from '../src/index.js';
import { desiredInstance } from './fixtures.js';

const describeReal = process.env.NVCF_TEST_BACKENDS === 'memory' ? describe.skip : describe;
const workStreams = [Streams.create, Streams.update, Streams.terminate];

/** The bus, counting the agent's handler calls by subject and instance. */
function counting(bus: Bus) {
  const calls = new Map<string, number>();
  const counted: Bus = {
    ensureStreams: (specs) => bus.ensureStreams(specs),
    publish: (subject, data, opts) => bus.publish(subject, data, opts),
    consume: <T>(opts: Parameters<Bus['consume']>[0], handler: (m: Delivery<T>) => Promise<void>) =>
      bus.consume<T>(opts, (m) => {
        const key = `${m.subject} ${(m.data as { instanceId?: string }).instanceId}`;
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return handler(m);
      }),
    tail: (opts, handler) => bus.tail(opts, handler),
    streamInfo: (stream, opts) => bus.streamInfo(stream, opts),
    deadLetters: bus.deadLetters,
    dispose: () => bus.dispose(),
    [Symbol.asyncDispose]: () => bus.dispose(),
  };
  return { bus: counted, calls };
}

describeReal('agent: work durables lost on the server (private NATS)', () => {
  let server: PrivateNats;
  let bus: Bus;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let tail: Consumer;
  let events: StatusEvent[];
  let n = 0;

  beforeAll(async () => {
    server = await startPrivateNats();
    bus = await createNatsBus({ servers: server.url, name: 'agent-durables-test' });
    await bus.ensureStreams(allStreams);
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
    events = [];
    tail = await bus.tail<StatusEvent>({ stream: Streams.status.name, fromSeq: 1 }, (m) => {
      events.push(m.data);
    });
  });
  afterAll(async () => {
    await tail?.stop();
    await nc?.close();
    await bus?.dispose();
    await server?.[Symbol.asyncDispose]();
  });

  /** A fresh cluster (its own subjects and durables), its simulated objects, and a counted bus. */
  const setup = () => {
    const clusterId = `cluster-d${n++}`;
    const driver: SimulatedCluster = createSimulatedCluster({ clusterId, startDelayMs: 300 });
    const { bus: counted, calls } = counting(bus);
    const start = () =>
      startAgent({
        bus: counted,
        driver,
        backoff: { initialMs: 10, maxMs: 20, factor: 2 },
        operatorCheckMs: 0,
        log: () => {},
      });
    const create = (instanceId: string) => {
      const m: CreateInstanceMessage = {
        type: 'create',
        ...desiredInstance(clusterId, instanceId, 'r1', '2026-01-01T00:00:01.000Z'),
      };
      return bus.publish(subjects.create(clusterId), m, { msgId: msgIds.create(instanceId) });
    };
    const durables = workStreams.map((s) => ({ stream: s.name, durable: durableName(s.name, clusterId) }));
    const createDurable = durables[0];
    /** Deletes all three work durables: what losing the server of an R1 durable looks like. */
    const deleteDurables = async () => {
      const created = new Map<string, string>();
      for (const { stream, durable } of durables) {
        created.set(durable, (await jsm.consumers.info(stream, durable)).created);
        await jsm.consumers.delete(stream, durable);
      }
      return created;
    };
    const states = (instanceId: string) => events.filter((e) => e.instanceId === instanceId).map((e) => e.state);
    const handledOnce = (ids: string[]) =>
      expect(ids.map((id) => `${id}: ${calls.get(`${subjects.create(clusterId)} ${id}`) ?? 0}`)).toEqual(
        ids.map((id) => `${id}: 1`),
      );
    /** Nothing pending or unacked on the create durable: no delivery still to come. */
    const drained = () =>
      waitUntil(
        async () => {
          const ci = await jsm.consumers.info(createDurable.stream, createDurable.durable).catch(() => undefined);
          return ci?.num_pending === 0 && ci.num_ack_pending === 0;
        },
        { timeoutMs: 20_000, what: 'the create durable drained' },
      );
    return { clusterId, start, create, durables, deleteDurables, states, handledOnce, drained };
  };
  const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const allActive = (c: ReturnType<typeof setup>, list: string[]) =>
    waitUntil(() => list.every((id) => c.states(id).includes('ACTIVE')), {
      timeoutMs: 20_000,
      what: `${list.length} instances ACTIVE`,
    });

  it('durables deleted while the agent runs, with work in flight: created again, every pending create applied once', async () => {
    const c = setup();
    const agent: Agent = await c.start();
    try {
      const first = ids('a', 5);
      await Promise.all(first.map(c.create));
      // applies take 300 ms: these are in the agent's hands when their durable goes
      await waitUntil(() => first.every((id) => c.states(id).includes('STARTING')), {
        what: 'the first applies started',
      });
      expect(first.some((id) => c.states(id).includes('ACTIVE'))).toBe(false);
      const created = await c.deleteDurables();
      const second = ids('b', 5);
      await Promise.all(second.map(c.create)); // no durable exists now: the work queue keeps them

      // every work durable is back (a new one, not a lookup of the old), not just the one with work
      for (const { stream, durable } of c.durables)
        await waitUntil(
          () =>
            jsm.consumers.info(stream, durable).then(
              (ci) => ci.created !== created.get(durable),
              () => false,
            ),
          { timeoutMs: 15_000, what: `${durable} created again` },
        );
      await allActive(c, [...first, ...second]);
      await c.drained();
      c.handledOnce([...first, ...second]);
      for (const id of [...first, ...second]) expect(c.states(id)).toEqual(['STARTING', 'ACTIVE']);
    } finally {
      await agent.stop();
    }
  });

  it('durables deleted while the agent is stopped: the next agent creates them and applies every pending create once', async () => {
    const c = setup();
    await (await c.start()).stop();
    const pending = ids('p', 5);
    await Promise.all(pending.map(c.create));
    await c.deleteDurables();
    expect((await bus.streamInfo(Streams.create.name, { subject: subjects.create(c.clusterId) })).messages).toBe(5);

    const agent = await c.start();
    try {
      await allActive(c, pending);
      await c.drained();
      c.handledOnce(pending);
      expect((await bus.streamInfo(Streams.create.name, { subject: subjects.create(c.clusterId) })).messages).toBe(0);
    } finally {
      await agent.stop();
    }
  });
});

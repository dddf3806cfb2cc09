import type {
  Bus,
  BusMessage,
  Consumer,
  ConsumerOptions,
  DeadLetter,
  DeadLetters,
  Delivery,
  PublishAck,
  StreamInfo,
  StreamSpec,
  TailOptions,
} from './types.js';
import { StreamIndex, subjectMatches } from './subject-match.js';
import { runDelivery, type Outcome } from './delivery.js';
import { deadLettered, deliveryMeter, tracedDelivery, tracedPublish, waitingOnOutage } from './telemetry.js';
import { BusClosed, PublishFailed } from './errors.js';
import {
  deadLetterFilter,
  deadLetterHeaders,
  deadLetterMsgId,
  deadLetterOrigin,
  deadLetterStream,
  deadLetterSubject,
  type DeadLetterOrigin,
} from './dead-letter.js';
import { OutageGate } from './outage.js';

interface Stored {
  seq: number;
  subject: string;
  json: string;
  publishedAt: number;
  headers?: Record<string, string>;
}
interface StreamState {
  spec: StreamSpec;
  messages: Stored[];
  lastSeq: number;
  dedup: Map<string, { seq: number; at: number }>;
  tails: Set<(m: Stored) => void>;
  wake: Set<() => void>;
}
/** Durable consumer state lives in the bus, so a restarted consumer sees its unacked messages again. */
/** A durable's position, shared (as on JetStream) by every consumer bound to it: they split its work. */
interface DurableState {
  nextSeq: number;
  unacked: Set<number>;
  deliveries: Map<number, number>;
  /** redeliveries waiting for any of the durable's consumers */
  due: number[];
  /** sequences a live consumer's handler is working on, and which consumer (its pump) */
  held: Map<number, () => void>;
  /** each bound consumer's pump */
  pumps: Set<() => void>;
}

const decode = <T>(m: Stored): BusMessage<T> => ({
  subject: m.subject,
  seq: m.seq,
  data: JSON.parse(m.json) as T,
  publishedAt: m.publishedAt,
  ...(m.headers ? { headers: m.headers } : {}),
});

/** The in-process bus: JetStream's semantics (sequences, dedup, durables, redelivery) without a server. */
export function createMemoryBus(): Bus {
  const streams = new Map<string, StreamState>();
  const durables = new Map<string, DurableState>();
  const consumers = new Set<Consumer>();
  let disposed = false;
  const alive = () => {
    if (disposed) throw new BusClosed();
  };

  // the NATS bus's lookup too: every publish asks, and subjects repeat (one per instance)
  const streamNames = new StreamIndex();
  const streamFor = (subject: string) => streams.get(streamNames.of(subject));
  const mustStream = (name: string) => {
    const s = streams.get(name);
    if (!s) throw new Error(`stream ${name} does not exist`);
    return s;
  };
  const trim = (s: StreamState, now: number) => {
    const { maxAgeMs, maxMsgs } = s.spec;
    while (
      s.messages.length &&
      ((maxMsgs && s.messages.length > maxMsgs) || (maxAgeMs && now - s.messages[0].publishedAt > maxAgeMs))
    )
      s.messages.shift();
    for (const [id, d] of s.dedup) if (now - d.at > (s.spec.duplicateWindowMs ?? 120_000)) s.dedup.delete(id);
  };
  const find = (s: StreamState, seq: number) => {
    // messages are ordered by seq; binary search keeps replay cheap on long streams
    let lo = 0,
      hi = s.messages.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = s.messages[mid].seq;
      if (v === seq) return s.messages[mid];
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };

  const ensure = (spec: StreamSpec): StreamState => {
    const existing = streams.get(spec.name);
    if (existing) {
      existing.spec = spec;
      return existing;
    }
    const created: StreamState = {
      spec,
      messages: [],
      lastSeq: 0,
      dedup: new Map(),
      tails: new Set(),
      wake: new Set(),
    };
    streams.set(spec.name, created);
    return created;
  };
  /** Stores one message (JetStream's dedup by message id included) and tells its tails and consumers. */
  const append = (
    s: StreamState,
    subject: string,
    json: string,
    headers: Record<string, string> | undefined,
    msgId: string | undefined,
  ): PublishAck => {
    const now = Date.now();
    trim(s, now);
    if (msgId) {
      const seen = s.dedup.get(msgId);
      if (seen) return { stream: s.spec.name, seq: seen.seq, duplicate: true };
    }
    const m: Stored = { seq: ++s.lastSeq, subject, json, publishedAt: now, ...(headers ? { headers } : {}) };
    s.messages.push(m);
    if (msgId) s.dedup.set(msgId, { seq: m.seq, at: now });
    for (const t of s.tails) t(m);
    for (const w of s.wake) w();
    return { stream: s.spec.name, seq: m.seq, duplicate: false };
  };

  // the dead-letter copy of a message a consumer gave up on: stored as the original was, with why;
  // the stream is created by the first copy, as the NATS bus does
  const storeDeadLetter = (m: Stored, origin: DeadLetterOrigin) => {
    const ack = append(
      ensure(deadLetterStream),
      deadLetterSubject(origin.stream, origin.durable),
      m.json,
      { ...m.headers, ...deadLetterHeaders(origin) },
      deadLetterMsgId(origin.stream, origin.seq, origin.durable),
    );
    if (!ack.duplicate) deadLettered(origin);
  };
  const deadLetterMessages = () => streams.get(deadLetterStream.name)?.messages ?? [];
  const toDeadLetter = (m: Stored): DeadLetter | undefined => {
    const origin = deadLetterOrigin((k) => m.headers?.[k]);
    return origin && { ...origin, id: m.seq, at: m.publishedAt, data: m.json };
  };
  const deadLetters: DeadLetters = {
    async list(o = {}) {
      const filter = deadLetterFilter(o);
      return deadLetterMessages()
        .filter((m) => subjectMatches(filter, m.subject))
        .slice(0, o.limit ?? 100)
        .flatMap((m) => toDeadLetter(m) ?? []);
    },
    async get(id) {
      const dl = streams.get(deadLetterStream.name);
      const m = dl && find(dl, id);
      return m && toDeadLetter(m);
    },
    async replay(id, o = {}) {
      const dl = streams.get(deadLetterStream.name);
      const m = dl && find(dl, id);
      const d = m && toDeadLetter(m);
      if (!dl || !d) throw new PublishFailed(`dead letter ${id} does not exist in ${deadLetterStream.name}`);
      let data: unknown;
      try {
        data = JSON.parse(o.data ?? d.data);
      } catch (err) {
        throw new PublishFailed(`dead letter ${id}: the payload to replay is not JSON`, { cause: err });
      }
      const ack = await bus.publish(d.subject, data, { msgId: `replay:${deadLetterStream.name}:${id}` });
      dl.messages = dl.messages.filter((x) => x.seq !== id);
      return ack;
    },
    async purge(o = {}) {
      const dl = streams.get(deadLetterStream.name);
      if (!dl) return 0;
      const filter = deadLetterFilter(o);
      const before = dl.messages.length;
      dl.messages = dl.messages.filter((m) => !subjectMatches(filter, m.subject));
      return before - dl.messages.length;
    },
  };

  const bus: Bus = {
    deadLetters,

    async ensureStreams(specs) {
      alive();
      streamNames.add(specs);
      for (const spec of specs) ensure(spec);
    },

    publish: (subject, data, opts) => {
      if (disposed) return Promise.reject(new BusClosed());
      const s = streamFor(subject);
      if (!s) return Promise.reject(new Error(`no stream listens on subject ${subject}`));
      return tracedPublish(s.spec.name, subject, opts?.msgId, async (headers) =>
        append(s, subject, JSON.stringify(data), headers, opts?.msgId),
      );
    },

    // `replicas` is ignored: a durable here lives and dies with the process, like its streams
    async consume<T>(opts: ConsumerOptions, handler: (msg: Delivery<T>) => Promise<void>): Promise<Consumer> {
      alive();
      const s = mustStream(opts.stream);
      const key = `${opts.stream}/${opts.durable}`;
      let d = durables.get(key);
      if (!d) {
        d = {
          nextSeq: opts.startAt === 'new' ? s.lastSeq + 1 : 1,
          unacked: new Set<number>(),
          deliveries: new Map<number, number>(),
          due: [],
          held: new Map(),
          pumps: new Set(),
        };
        durables.set(key, d);
      }
      const durable = d;
      // Everything unacked by a previous incarnation is due again: that is what a killed agent relies on.
      if (!durable.pumps.size)
        durable.due = [...durable.unacked].filter((q) => !durable.held.has(q)).sort((a, b) => a - b);
      const { maxAckPending = 64, maxDeliver = 20, backoffMs = [500, 2000, 5000] } = opts;
      const gate = new OutageGate(`consumer ${opts.durable}`, opts.outageBackoff, (down) =>
        waitingOnOutage(opts.stream, opts.durable, down),
      );
      const policy = { maxDeliver, backoffMs, gate };
      const meter = deliveryMeter(opts.stream, opts.durable);
      const inFlight = new Set<number>();
      const timers = new Map<NodeJS.Timeout, number>();
      const handlers = new Set<Promise<void>>();
      let stopped = false;
      const wakeAll = () => {
        for (const p of durable.pumps) p();
      };

      const pump = () => {
        while (!stopped && inFlight.size < maxAckPending) {
          let seq = durable.due.shift();
          if (seq === undefined) {
            while (durable.nextSeq <= s.lastSeq) {
              const m = find(s, durable.nextSeq++);
              if (m && subjectMatches(opts.filterSubject, m.subject)) {
                seq = m.seq;
                durable.unacked.add(m.seq);
                break;
              }
            }
          }
          if (seq === undefined) return;
          if (!durable.unacked.has(seq)) continue; // settled meanwhile by the consumer that left it
          const m = find(s, seq);
          if (!m) {
            durable.unacked.delete(seq);
            continue;
          }
          const count = (durable.deliveries.get(seq) ?? 0) + 1;
          durable.deliveries.set(seq, count);
          inFlight.add(seq);
          durable.held.set(seq, pump);
          const done = (outcome: Outcome) => {
            inFlight.delete(seq);
            if (durable.held.get(seq) === pump) durable.held.delete(seq);
            if (outcome !== 'ack' && 'dead' in outcome)
              storeDeadLetter(m, {
                stream: opts.stream,
                subject: m.subject,
                seq,
                durable: opts.durable,
                deliveries: count,
                error: outcome.dead,
                publishedAt: m.publishedAt,
              });
            if (outcome === 'ack' || 'dead' in outcome) {
              durable.unacked.delete(seq);
              durable.deliveries.delete(seq);
              if (s.spec.retention === 'workqueue') s.messages = s.messages.filter((x) => x.seq !== seq);
            } else if (!stopped) {
              const t = setTimeout(() => {
                timers.delete(t);
                durable.due.push(seq);
                durable.due.sort((a, b) => a - b);
                wakeAll();
              }, outcome.nakMs);
              timers.set(t, seq);
            }
            pump();
          };
          // settled even after stop(): the work is done, and an ack spares the next consumer a duplicate
          const delivery: Delivery<T> = { ...decode<T>(m), deliveryCount: count };
          const h = tracedDelivery(
            meter,
            delivery,
            () => m.headers,
            undefined,
            () => runDelivery(delivery, handler, policy),
          )
            .then(done)
            .finally(() => handlers.delete(h));
          handlers.add(h);
        }
      };
      durable.pumps.add(pump);
      s.wake.add(pump);
      queueMicrotask(pump);
      const consumer: Consumer = {
        async stop(o: { graceMs?: number } = {}) {
          stopped = true;
          gate.stop();
          s.wake.delete(pump);
          durable.pumps.delete(pump);
          // naks waiting for their backoff go back to the durable rather than vanish with their timers
          for (const [t, seq] of timers) {
            clearTimeout(t);
            durable.due.push(seq);
          }
          timers.clear();
          // what its handlers still hold is the durable's others' (or its next consumer's) to take:
          // JetStream redelivers it after the ack wait, here at once; a late ack still counts
          for (const seq of inFlight) {
            if (durable.held.get(seq) === pump) durable.held.delete(seq);
            durable.due.push(seq);
          }
          durable.due.sort((a, b) => a - b);
          wakeAll();
          if (o.graceMs) {
            let timer: NodeJS.Timeout | undefined;
            await Promise.race([
              Promise.allSettled([...handlers]),
              new Promise((r) => {
                timer = setTimeout(r, o.graceMs);
              }),
            ]);
            clearTimeout(timer);
          }
          consumers.delete(consumer);
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async tail<T>(opts: TailOptions, handler: (msg: BusMessage<T>) => void): Promise<Consumer> {
      alive();
      const s = mustStream(opts.stream);
      trim(s, Date.now());
      if (opts.deliver === 'lastPerSubject') {
        const last = new Map<string, Stored>();
        for (const m of s.messages) if (subjectMatches(opts.filterSubject, m.subject)) last.set(m.subject, m);
        for (const m of [...last.values()].sort((x, y) => x.seq - y.seq)) handler(decode<T>(m));
      } else if (opts.fromSeq !== undefined) {
        for (const m of s.messages)
          if (m.seq >= opts.fromSeq && subjectMatches(opts.filterSubject, m.subject)) handler(decode<T>(m));
      }
      const live = (m: Stored) => {
        if (subjectMatches(opts.filterSubject, m.subject)) handler(decode<T>(m));
      };
      s.tails.add(live);
      opts.onCaughtUp?.();
      const consumer: Consumer = {
        async stop() {
          s.tails.delete(live);
          consumers.delete(consumer);
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async streamInfo(name, opts = {}): Promise<StreamInfo> {
      const s = mustStream(name);
      trim(s, Date.now());
      const messages = opts.subject
        ? s.messages.filter((m) => subjectMatches(opts.subject, m.subject)).length
        : s.messages.length;
      return { firstSeq: s.messages[0]?.seq ?? s.lastSeq + 1, lastSeq: s.lastSeq, messages };
    },

    async dispose() {
      disposed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
    },
    async [Symbol.asyncDispose]() {
      await bus.dispose();
    },
  };
  return bus;
}

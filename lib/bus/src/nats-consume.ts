import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { runDelivery, type Outcome } from './delivery.js';
import { AckTracker } from './nats-acks.js';
import { publishDeadLetter } from './nats-dead-letters.js';
import { OutageGate } from './outage.js';
import { deadLettered, deliveryMeter, tracedDelivery, waitingOnOutage } from './telemetry.js';
import { ConsumeLoop, PULL_EXPIRES_MS, Slots } from './nats-loop.js';
import type { ConsumerOptions, Delivery } from './types.js';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

export const nanos = (ms: number) => Math.round(ms * 1_000_000);

export interface NatsContext {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** creates the dead-letter stream (a bus that has not yet) */
  ensureDeadLetters: () => Promise<void>;
}

export class ConsumerSetupError extends Error {
  override name = 'ConsumerSetupError';
}

/**
 * A durable pull consumer feeding `handler` with up to maxAckPending messages in flight.
 * Returns the loop; stopping it leaves unacked messages to the durable's next consumer.
 */
export async function consumeDurable<T>(
  ctx: NatsContext,
  opts: ConsumerOptions,
  handler: (msg: Delivery<T>) => Promise<void>,
): Promise<ConsumeLoop> {
  const { nc, js, jsm } = ctx;
  const {
    stream,
    durable,
    ackWaitMs = 30_000,
    maxDeliver = 20,
    maxAckPending = 64,
    backoffMs = [500, 2000, 5000],
  } = opts;
  const config: Partial<ConsumerConfig> = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: opts.startAt === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    // the server never gives up on a message (it would keep it, undelivered, for good): the
    // consumer does, after maxDeliver failures of the message's own, into the dead-letter stream
    max_deliver: -1,
    max_ack_pending: maxAckPending,
    ...(opts.filterSubject ? { filter_subject: opts.filterSubject } : {}),
    ...(opts.replicas !== undefined ? { num_replicas: opts.replicas } : {}),
  };
  const slots = new Slots(maxAckPending);
  const acks = new AckTracker(nc);
  const gate = new OutageGate(`consumer ${durable}`, opts.outageBackoff, (down) =>
    waitingOnOutage(stream, durable, down),
  );
  const policy = { maxDeliver, backoffMs, gate };
  const meter = deliveryMeter(stream, durable);
  // handlers running here, by stream sequence, with the newest delivery of their message
  const running = new Map<number, { msg: JsMsg; since: number }>();
  // the server would redeliver a message whose handler outlives ack wait: tell it we are on the
  // long-running ones (one timer for the consumer, not one per message)
  const keepaliveMs = Math.max(50, Math.floor(ackWaitMs / 3));
  const keepalive = setInterval(() => {
    const before = Date.now() - keepaliveMs;
    for (const entry of running.values()) {
      if (entry.since > before) continue;
      try {
        entry.msg.working();
      } catch {
        /* reconnecting: the next tick or ack wait will tell */
      }
    }
  }, keepaliveMs);
  keepalive.unref();

  const open = async () => {
    // on every (re)open: a durable lost with the server's state comes back, a changed config applies
    await jsm.consumers.add(stream, config).catch((err: unknown) => {
      if (!(err instanceof JetStreamApiError) || err.code === JetStreamApiCodes.StreamNotFound) throw err;
      // exists with another config; where it starts is fixed at creation (and it is past that)
      const { deliver_policy: _fixed, ...changeable } = config;
      return jsm.consumers.update(stream, durable, changeable).catch((updateErr: unknown) => {
        // there was none to update: the create's refusal (replicas the stream does not allow, say) is the reason
        const missing = updateErr instanceof JetStreamApiError && updateErr.code === JetStreamApiCodes.ConsumerNotFound;
        throw missing ? err : updateErr;
      });
    });
    const consumer = await js.consumers.get(stream, durable);
    return consumer.consume({ max_messages: maxAckPending, expires: PULL_EXPIRES_MS });
  };

  const deadLetter = async (m: JsMsg, error: string) => {
    const origin = {
      stream,
      subject: m.subject,
      seq: m.info.streamSequence,
      durable,
      deliveries: m.info.deliveryCount,
      error,
      publishedAt: m.time.getTime(),
    };
    try {
      await publishDeadLetter(ctx, m, origin, ctx.ensureDeadLetters);
    } catch (err) {
      // not copied, so not acked: it comes back after the backoff and is copied then
      log.error(`${durable}: could not dead-letter ${m.subject}#${origin.seq}; will retry`, err);
      return false;
    }
    deadLettered(origin);
    return true;
  };

  const settle = async (m: JsMsg, outcome: Outcome) => {
    try {
      if (outcome === 'ack') await acks.ack(m);
      else if ('dead' in outcome) {
        if (await deadLetter(m, outcome.dead)) await acks.ack(m);
        else m.nak(backoffMs[backoffMs.length - 1]);
      } else m.nak(outcome.nakMs);
    } catch (err) {
      // not fatal: the message comes back after ack wait and is handled again (at least once)
      if (!nc.isClosed()) log.error(`${durable}: could not settle ${m.subject}#${m.seq}`, err);
    }
  };

  const handlers = new Set<Promise<void>>();
  const deliver = (m: JsMsg) => {
    const h = handle(m).finally(() => handlers.delete(h));
    handlers.add(h);
    return h;
  };
  const run = async (m: JsMsg): Promise<Outcome> => {
    let data: T;
    try {
      data = m.json<T>();
    } catch (err) {
      return { dead: `payload is not JSON: ${(err as Error).message}` };
    }
    const delivery: Delivery<T> = {
      subject: m.subject,
      seq: m.info.streamSequence,
      data,
      publishedAt: m.time.getTime(),
      deliveryCount: m.info.deliveryCount,
    };
    return tracedDelivery(
      meter,
      delivery,
      () => headersOf(m),
      m.info.pending,
      () => runDelivery(delivery, handler, policy),
    );
  };
  const handle = async (m: JsMsg) => {
    const seq = m.info.streamSequence;
    const entry = { msg: m, since: Date.now() };
    running.set(seq, entry);
    let outcome: Outcome;
    try {
      outcome = await run(m);
    } finally {
      slots.release();
    }
    // settled even after stop(): the work is done, and an ack spares the next consumer a duplicate
    const settled = nc.isClosed() ? undefined : settle(entry.msg, outcome); // marks an ack as done before...
    running.delete(seq); // ...this entry goes, so a redelivery in between is acked, not handled again
    await settled;
  };

  const onMessage = async (m: JsMsg) => {
    const seq = m.info.streamSequence;
    const current = running.get(seq);
    // after a server restart every pending message comes again at once, even ones running here
    if (current) return void (current.msg = m);
    if (acks.handled(seq)) return void acks.ack(m).catch(() => {});
    if (await slots.take()) return void deliver(m);
    // pulled but its handler never started: hand it back now rather than after ack wait
    try {
      m.nak();
    } catch {
      /* connection gone: ack wait returns it */
    }
  };

  const loop = new ConsumeLoop({
    what: `consumer ${durable}`,
    open,
    onMessage,
    closed: () => nc.isClosed(),
    settle: (graceMs) => waitFor([...handlers], graceMs),
    beforeStop: () => {
      slots.close();
      gate.stop();
      // in-flight handlers keep running, but their messages may now expire and go to the next consumer
      clearInterval(keepalive);
    },
  });
  try {
    await loop.start();
  } catch (err) {
    clearInterval(keepalive);
    throw new ConsumerSetupError(`cannot consume ${stream} as ${durable}`, { cause: err });
  }
  return loop;
}

/** Resolves when every promise has settled, or after `ms`, whichever comes first. */
async function waitFor(all: Promise<unknown>[], ms: number) {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(all),
    new Promise((r) => {
      timer = setTimeout(r, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** The trace context a message carries (traceparent, tracestate), when it carries one. */
export function headersOf(m: JsMsg): Record<string, string> | undefined {
  const tp = m.headers?.get('traceparent');
  if (!tp) return undefined;
  const ts = m.headers?.get('tracestate');
  return ts ? { traceparent: tp, tracestate: ts } : { traceparent: tp };
}

import { DeliverPolicy, type Consumer, type JsMsg, type OrderedConsumerOptions } from '@nats-io/jetstream';
import type { NatsContext } from './nats-consume.js';
import { ConsumeLoop, PULL_EXPIRES_MS } from './nats-loop.js';
import { headersOf } from './nats-consume.js';
import type { BusMessage, TailOptions } from './types.js';
import { createLogger } from '@nvcf/logging';

const log = createLogger('bus');

/**
 * An ordered ephemeral read, reopened after failures at the sequence after the last one
 * delivered, so that nothing is skipped or repeated.
 */
export async function tailStream<T>(
  ctx: NatsContext,
  opts: TailOptions,
  handler: (msg: BusMessage<T>) => void,
): Promise<ConsumeLoop> {
  const { nc, js, jsm } = ctx;
  const lastPerSubject = opts.deliver === 'lastPerSubject';
  // "only new messages" is pinned to a sequence now, so one published right after tail() resolves is seen
  let next = lastPerSubject ? 1 : (opts.fromSeq ?? (await jsm.streams.info(opts.stream)).state.last_seq + 1);
  let caughtUp = false;
  let backlog = 0; // messages the current consumer had stored for us when it was created
  let current: Consumer | undefined;

  const catchUp = () => {
    if (caughtUp) return;
    caughtUp = true;
    try {
      opts.onCaughtUp?.();
    } catch (err) {
      log.error(`tail of ${opts.stream}: onCaughtUp failed`, err);
    }
  };

  const open = async () => {
    // until the snapshot is through, a reopen takes the snapshot again (skipping what was
    // delivered): resuming by sequence would also replay the superseded messages in between
    const o: Partial<OrderedConsumerOptions> =
      lastPerSubject && !caughtUp
        ? { deliver_policy: DeliverPolicy.LastPerSubject }
        : next > 1
          ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: next }
          : { deliver_policy: DeliverPolicy.All };
    if (opts.filterSubject) o.filter_subjects = [opts.filterSubject];
    const consumer = await js.consumers.get(opts.stream, o);
    current = consumer;
    backlog = (await consumer.info(true)).num_pending;
    const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
    if (backlog === 0) catchUp();
    return messages;
  };

  const deliver = (m: JsMsg, seq: number) => {
    let data: T;
    try {
      data = m.json<T>();
    } catch (err) {
      return void log.error(`tail of ${opts.stream}: skipping ${m.subject}#${seq}: payload is not JSON`, err);
    }
    try {
      const headers = headersOf(m);
      handler({ subject: m.subject, seq, data, publishedAt: m.time.getTime(), ...(headers ? { headers } : {}) });
    } catch (err) {
      // one reader's bug must not stall the stream for it
      log.error(`tail of ${opts.stream}: handler failed on ${m.subject}#${seq}`, err);
    }
  };

  const loop = new ConsumeLoop({
    what: `tail of ${opts.stream}`,
    open,
    onMessage: (m) => {
      const seq = m.info.streamSequence;
      backlog--;
      if (seq >= next) {
        next = seq + 1;
        deliver(m, seq);
      } // else: a reopened consumer overlapping what was already delivered
      if (backlog <= 0 || m.info.pending === 0) catchUp();
    },
    closed: () => nc.isClosed(),
    // the server would keep an ordered consumer 5 minutes after its reader left; one per
    // subscription adds up on a busy gateway
    afterStop: async () => {
      if (!nc.isClosed()) await current?.delete().catch(() => {});
    },
  });
  await loop.start();
  return loop;
}

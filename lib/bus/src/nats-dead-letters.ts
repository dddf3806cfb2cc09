import { DeliverPolicy, JetStreamApiCodes, JetStreamApiError, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import {
  deadLetterFilter,
  deadLetterHeaders,
  deadLetterMsgId,
  deadLetterOrigin,
  deadLetterStream,
  deadLetterSubject,
  type DeadLetterOrigin,
} from './dead-letter.js';
import { PublishFailed } from './errors.js';
import type { NatsContext } from './nats-consume.js';
import type { DeadLetter, DeadLetters, PublishAck } from './types.js';

const LIST_LIMIT = 100;
const LIST_WAIT_MS = 2000;
const decoder = new TextDecoder();

const isStreamNotFound = (err: unknown) =>
  err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;

const headerGetter = (h: MsgHdrs | undefined) => (key: string) => h?.get(key) || undefined;

function toDeadLetter(id: number, time: Date, h: MsgHdrs | undefined, data: Uint8Array): DeadLetter | undefined {
  const origin = deadLetterOrigin(headerGetter(h));
  return origin && { ...origin, id, at: time.getTime(), data: decoder.decode(data) };
}

/**
 * Stores a copy of `m` in the dead-letter stream, with why. Published with a message id, so a copy
 * stored before its ack was lost is not stored twice when the message comes back. A bus that has not
 * created the stream yet (a consumer started before `ensureStreams`) creates it here.
 */
export async function publishDeadLetter(
  ctx: NatsContext,
  m: JsMsg,
  origin: DeadLetterOrigin,
  ensureStream: () => Promise<void>,
): Promise<void> {
  const h = natsHeaders();
  for (const [k, v] of m.headers ?? []) for (const one of v) h.append(k, one);
  for (const [k, v] of Object.entries(deadLetterHeaders(origin))) h.set(k, v);
  const publish = () =>
    ctx.js.publish(deadLetterSubject(origin.stream, origin.durable), m.data, {
      msgID: deadLetterMsgId(origin.stream, origin.seq, origin.durable),
      headers: h,
    });
  try {
    await publish();
  } catch (err) {
    // nats.js reports "no responders" to a publish no stream listens on as JetStreamNotEnabled
    if ((err as Error).name !== 'JetStreamNotEnabled') throw err;
    await ensureStream();
    await publish();
  }
}

/** The dead-letter stream on JetStream. */
export function natsDeadLetters(ctx: NatsContext): DeadLetters {
  const name = deadLetterStream.name;

  const get = async (id: number): Promise<DeadLetter | undefined> => {
    const m = await ctx.jsm.streams.getMessage(name, { seq: id }).catch((err: unknown) => {
      if (isStreamNotFound(err) || (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.NoMessageFound))
        return null;
      throw err;
    });
    return m ? toDeadLetter(m.seq, m.time, m.header, m.data) : undefined;
  };

  return {
    async list(o = {}) {
      const limit = o.limit ?? LIST_LIMIT;
      const info = await ctx.jsm.streams.info(name, { subjects_filter: deadLetterFilter(o) }).catch((err: unknown) => {
        if (isStreamNotFound(err)) return undefined;
        throw err;
      });
      // none matching: an ordered consumer would wait out its pull for nothing
      if (!info || Object.keys(info.state.subjects ?? {}).length === 0) return [];
      // an ordered consumer reads the stream without leaving a durable behind
      const reader = await ctx.js.consumers.get(name, {
        filter_subjects: [deadLetterFilter(o)],
        deliver_policy: DeliverPolicy.All,
      });
      const out: DeadLetter[] = [];
      try {
        while (out.length < limit) {
          const m = await reader.next({ expires: LIST_WAIT_MS });
          if (!m) break;
          const d = toDeadLetter(m.seq, m.time, m.headers, m.data);
          if (d) out.push(d);
          if (m.info.pending === 0) break;
        }
      } finally {
        await reader.delete().catch(() => {});
      }
      return out;
    },

    get,

    async replay(id, o = {}): Promise<PublishAck> {
      const d = await get(id);
      if (!d) throw new PublishFailed(`dead letter ${id} does not exist in ${name}`);
      const ack = await ctx.js.publish(d.subject, o.data ?? d.data, { msgID: `replay:${name}:${id}` });
      await ctx.jsm.streams.deleteMessage(name, id, false);
      return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
    },

    async purge(o = {}) {
      const r = await ctx.jsm.streams
        .purge(name, o.stream ? { filter: deadLetterFilter(o) } : undefined)
        .catch((err: unknown) => {
          if (isStreamNotFound(err)) return { purged: 0 };
          throw err;
        });
      return r.purged;
    },
  };
}

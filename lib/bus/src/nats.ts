import {
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type StreamConfig,
  type StreamInfo as JsStreamInfo,
} from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { tracedPublish } from './telemetry.js';
import { StreamIndex } from './subject-match.js';
import { consumeDurable, type NatsContext } from './nats-consume.js';
import { natsDeadLetters } from './nats-dead-letters.js';
import { natsStreamConfig, streamConfigDifferences } from './nats-streams.js';
import { deadLetterStream } from './dead-letter.js';
import { BusClosed, BusConnectError, PublishFailed, StreamConfigError } from './errors.js';
import { sleep, type ConsumeLoop } from './nats-loop.js';
import { tailStream } from './nats-tail.js';
import type { Bus, Consumer, PublishAck, StreamInfo, StreamSpec } from './types.js';

export interface NatsBusOptions {
  /** comma-separated NATS URLs */
  servers: string;
  /** connection name shown by the server's monitoring */
  name?: string;
  /** 3 on a JetStream cluster; 1 (default) on a single server */
  streamReplicas?: number;
  /**
   * How long a publish carrying a msgId keeps retrying through an outage (default 10 s). Only
   * those are retried: the server's dedup window makes a repeat harmless, a repeat without an id is not.
   */
  publishRetryMs?: number;
}

const RETRIED_ATTEMPT_MS = 2000;

const isStreamNotFound = (err: unknown) =>
  err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;

// retention and storage cannot change in place; every other field we set is updated
const differs = (have: StreamConfig, want: StreamConfig) =>
  streamConfigDifferences(have, want).some((d) => d.field !== 'retention' && d.field !== 'storage');

/** The bus on NATS JetStream: streams on file storage, durable pull consumers, ordered consumers for tails. */
export async function createNatsBus(opts: NatsBusOptions): Promise<Bus & AsyncDisposable> {
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: opts.servers
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      name: opts.name ?? 'nvcf-bus',
      reconnect: true,
      maxReconnectAttempts: -1, // a NATS restart or upgrade must never end the process's messaging
      reconnectTimeWait: 500,
    });
  } catch (err) {
    throw new BusConnectError(`cannot connect to NATS at ${opts.servers}`, { cause: err });
  }
  let ctx: NatsContext;
  try {
    // fails when JetStream is off
    ctx = { nc, js: jetstream(nc), jsm: await jetstreamManager(nc), ensureDeadLetters: () => ensure(deadLetterStream) };
  } catch (err) {
    await nc.close();
    // no responder to JetStream's API: it is off on that server, which waiting does not change; any other
    // failure (a timeout while a cluster elects its meta leader, "temporarily unavailable") passes
    const offered = (err as Error).name !== 'JetStreamNotEnabled';
    throw new BusConnectError(
      offered
        ? `JetStream at ${opts.servers} is not available right now`
        : `NATS at ${opts.servers} does not offer JetStream (start it with JetStream enabled)`,
      { cause: err },
    );
  }
  const replicas = opts.streamReplicas ?? 1;
  const publishRetryMs = opts.publishRetryMs ?? 10_000;
  const loops = new Set<ConsumeLoop>();
  const streamNames = new StreamIndex();
  let disposed: Promise<void> | undefined;

  // After a reconnect the client re-checks each consumer but backs off 30 s if JetStream is not
  // back yet; reopening ourselves (with a short backoff) resumes within a second of recovery.
  const watching = (async () => {
    for await (const s of nc.status()) if (s.type === 'reconnect') for (const l of loops) l.restart();
  })().catch(() => {});

  const alive = () => {
    if (disposed || nc.isClosed()) throw new BusClosed();
  };
  const track = (loop: ConsumeLoop): Consumer => {
    loops.add(loop);
    return {
      async stop() {
        loops.delete(loop);
        await loop.stop();
      },
    };
  };

  async function ensure(spec: StreamSpec): Promise<void> {
    const want = natsStreamConfig(spec, replicas);
    try {
      const have: JsStreamInfo | undefined = await ctx.jsm.streams.info(spec.name).catch((err) => {
        if (isStreamNotFound(err)) return undefined;
        throw err;
      });
      if (!have) await ctx.jsm.streams.add(want);
      else if (have.config.retention !== want.retention)
        throw new Error(
          `it has ${have.config.retention} retention, the spec asks for ${want.retention}; JetStream cannot change that in place`,
        );
      else if (differs(have.config, want)) await ctx.jsm.streams.update(spec.name, want);
    } catch (err) {
      throw new StreamConfigError(`cannot create or update stream ${spec.name}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  const bus: Bus & AsyncDisposable = {
    async ensureStreams(specs) {
      alive();
      streamNames.add(specs);
      for (const spec of specs) await ensure(spec);
    },

    deadLetters: natsDeadLetters(ctx),

    publish: (subject, data, o) =>
      tracedPublish(streamNames.of(subject), subject, o?.msgId, async (traceHeaders): Promise<PublishAck> => {
        alive();
        const payload = JSON.stringify(data);
        let hdrs: ReturnType<typeof natsHeaders> | undefined;
        if (traceHeaders) {
          hdrs = natsHeaders();
          for (const [k, v] of Object.entries(traceHeaders)) hdrs.set(k, v);
        }
        const deadline = Date.now() + (o?.msgId ? publishRetryMs : 0);
        for (let attempt = 0; ; attempt++) {
          try {
            // a request written into a connection that is going down is never answered: with an id,
            // a short attempt and another one beat waiting out the full default timeout
            const ack = await ctx.js.publish(
              subject,
              payload,
              o?.msgId
                ? { msgID: o.msgId, timeout: RETRIED_ATTEMPT_MS, headers: hdrs }
                : hdrs
                  ? { headers: hdrs }
                  : undefined,
            );
            // after a retry, `duplicate` can mean "an earlier attempt of ours was stored": still exactly once
            return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
          } catch (err) {
            if (disposed || nc.isClosed() || Date.now() >= deadline)
              throw new PublishFailed(`publish to ${subject} failed: ${(err as Error).message}`, { cause: err });
            await sleep(Math.min(100 * 2 ** attempt, 1000));
          }
        }
      }),

    async consume(copts, handler) {
      alive();
      return track(await consumeDurable(ctx, copts, handler));
    },

    async tail(topts, handler) {
      alive();
      return track(await tailStream(ctx, topts, handler));
    },

    async streamInfo(name, opts = {}): Promise<StreamInfo> {
      alive();
      const { state } = await ctx.jsm.streams.info(name, opts.subject ? { subjects_filter: opts.subject } : undefined);
      const messages = opts.subject ? Object.values(state.subjects ?? {}).reduce((a, n) => a + n, 0) : state.messages;
      // an empty stream reports first_seq 0 at creation and last_seq + 1 after a purge: normalise to the latter
      return {
        firstSeq: state.messages === 0 ? state.last_seq + 1 : state.first_seq,
        lastSeq: state.last_seq,
        messages,
      };
    },

    dispose() {
      disposed ??= (async () => {
        await Promise.all([...loops].map((l) => l.stop()));
        loops.clear();
        // drain flushes pending acks; a server that is down cannot answer it, so close after a grace period
        const drained = nc.drain().catch(() => {});
        const timer = new Promise<void>((r) => setTimeout(r, 5000).unref());
        await Promise.race([drained, timer]);
        if (!nc.isClosed()) await nc.close();
        await watching;
      })();
      return disposed;
    },

    async [Symbol.asyncDispose]() {
      await bus.dispose();
    },
  };
  return bus;
}

/**
 * The raw ceiling of the fleet benchmark's status path: what the same NATS and Cassandra deliver
 * when nothing of the control plane stands between them.
 *
 * The same number of status events as a rollout of `instances` produces (UPDATING then ACTIVE per
 * instance, shaped like the agents' StatusEvent, on `subjects.status` under a prefix of its own,
 * with `msgIds.status` as the message id) is published at full speed, a bounded window of instances
 * at a time, into a stream of its own (`FleetRawStatusStream`: Streams.status's configuration and
 * replicas, so the control plane's readers never see it). Three durable pull consumers, one per
 * status reader of ours (nvcf, icms, nvca-status), write each event as one plain row (no LWT,
 * `USING TIMESTAMP <clock>` so the newest clock wins whatever the order) into a keyspace of its own
 * with the control plane's replication, then ack. Stream, consumers and keyspace go afterwards.
 *
 * Why it is a fair ceiling: it does no more work than our readers (one prepared single-row write
 * per event, a plain ack, no tracing, metrics, evaluation or per-tenant fan-out), and no less
 * batching: its rows go through the same coalescedWriter as our stores' status writes (one per
 * reader, the same limits, so the same unlogged batches), and each durable has
 * the max ack pending its reader of ours runs with (read from that reader's durable on the status
 * stream; `readerOf`'s default where there is none), pulls that many messages at a time as ours do,
 * and writes through createCassandraClient at its default consistency (LOCAL_QUORUM) with prepared
 * statements, sharing one client as our three stores do.
 */
import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JsMsg,
} from '@nats-io/jetstream';
import { PULL_EXPIRES_MS, natsStreamConfig, type StreamSpec } from '@nvcf/bus';
import {
  coalescedWriter,
  createCassandraClient,
  LOCAL_REPLICATION,
  replicationCql,
  type Replication,
} from '@nvcf/cassandra';
import { Streams, msgIds, readerOf, subjects, type StatusEvent } from '@nvcf/contracts';
import { READERS, type PerReader } from './readers.js';

export const RAW_STREAM: StreamSpec = {
  ...Streams.status,
  name: 'FleetRawStatusStream',
  subjects: ['FleetRaw.Status.NVCA.>'],
};
const rawSubject = (ncaId: string, instanceId: string) => `FleetRaw.${subjects.status(ncaId, instanceId)}`;
/** instances whose two events are in flight at once: well above what the agents of a fleet keep in flight */
const PUBLISH_WINDOW = 256;
const TIMEOUT_MS = 600_000;

export interface RawOptions {
  natsUrl: string;
  contactPoints: string[];
  localDataCenter: string;
  streamReplicas: number;
  replication?: Replication;
  clusters: number;
  instances: number;
  /** each of our readers' max ack pending, as its durable runs; default readerOf's */
  maxAckPending?: Partial<PerReader<number>>;
}

export interface RawResult {
  events: number;
  /** events applied per second by the slowest raw reader, first publish to its last applied */
  events_per_s: number;
  per_reader: PerReader<number>;
}

/** The events of one rollout: per instance UPDATING to the new revision, then ACTIVE on it. */
function rolloutEvents(tag: string, clusters: number, i: number, clock: number): [StatusEvent, StatusEvent] {
  const ref = {
    ncaId: 'fleet-raw',
    functionId: `fn-${tag}`,
    versionId: `v-${tag}`,
    gpuSpecificationId: `spec-${tag}-${Math.floor(i / 250)}`,
    clusterId: `fleet-raw-${tag}-${i % clusters}`,
    instanceId: `raw-${tag}-${i}`,
  };
  const updating: StatusEvent = {
    ...ref,
    state: 'UPDATING',
    previousState: 'ACTIVE',
    revisionId: `rev-${tag}-1`,
    targetRevisionId: `rev-${tag}-2`,
    at: new Date(Math.floor(clock / 1000)).toISOString(),
    clock,
  };
  const active: StatusEvent = {
    ...ref,
    state: 'ACTIVE',
    previousState: 'UPDATING',
    revisionId: `rev-${tag}-2`,
    at: new Date(Math.floor((clock + 1) / 1000)).toISOString(),
    clock: clock + 1,
  };
  return [updating, active];
}

/**
 * Publishes each instance's events in order, PUBLISH_WINDOW instances at a time, each awaited for
 * its stream acknowledgement: the raw ceiling and the readers' burst of ours publish alike.
 */
export async function publishPairs(
  js: JetStreamClient,
  perInstance: StatusEvent[][],
  subjectOf: (ncaId: string, instanceId: string) => string,
): Promise<void> {
  let next = 0;
  const publisher = async () => {
    for (let i = next++; i < perInstance.length; i = next++)
      for (const e of perInstance[i])
        await js.publish(subjectOf(e.ncaId, e.instanceId), JSON.stringify(e), { msgID: msgIds.status(e) });
  };
  await Promise.all(Array.from({ length: Math.min(PUBLISH_WINDOW, perInstance.length) }, publisher));
}

export async function runRawCeiling(o: RawOptions): Promise<RawResult> {
  const tag = randomBytes(3).toString('hex');
  const keyspace = `fleet_raw_${tag}`;
  const table = (r: string) => `${keyspace}.status_${r.replace(/\W/g, '_')}`;
  const conn = { contactPoints: o.contactPoints, localDataCenter: o.localDataCenter };
  const nc = await connect({ servers: o.natsUrl.split(','), name: 'fleet-bench-raw' });
  const admin = await createCassandraClient({ ...conn, requestTimeoutMs: 120_000 });
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const stops: (() => Promise<void>)[] = [];
  try {
    await jsm.streams.delete(RAW_STREAM.name).catch(() => false); // a crashed run's
    await jsm.streams.add(natsStreamConfig(RAW_STREAM, o.streamReplicas));
    await admin.execute(
      `CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = ${replicationCql(o.replication ?? LOCAL_REPLICATION)}`,
    );
    for (const r of READERS)
      await admin.execute(
        `CREATE TABLE IF NOT EXISTS ${table(r)} (instance_id text PRIMARY KEY, state text, clock bigint, doc text)`,
      );
    // one client for the three readers, as the control plane's three stores share one
    const client = await createCassandraClient(conn);
    stops.push(() => client.shutdown());

    const total = o.instances * 2;
    const applied: PerReader<number> = { nvcf: 0, icms: 0, 'nvca-status': 0 };
    const doneAt: PerReader<number> = { nvcf: 0, icms: 0, 'nvca-status': 0 };
    let finish!: () => void;
    const allDone = new Promise<void>((r) => (finish = r));
    for (const r of READERS) {
      const defaults = readerOf(RAW_STREAM, r);
      const reader = { ...defaults, maxAckPending: o.maxAckPending?.[r] ?? defaults.maxAckPending };
      await jsm.consumers.add(RAW_STREAM.name, {
        durable_name: reader.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: (reader.ackWaitMs ?? 30_000) * 1_000_000,
        max_ack_pending: reader.maxAckPending,
      });
      const insert = `INSERT INTO ${table(r)} (instance_id, state, clock, doc) VALUES (?, ?, ?, ?) USING TIMESTAMP ?`;
      // prepared before the clock starts: ours have been running since the deploy
      await client.execute(insert, ['warm-up', 'ACTIVE', 0, '{}', 0], { prepare: true });
      // batched as each of our stores batches its status writes (one writer per store, the same limits)
      const rows = coalescedWriter(client);
      const handle = async (m: JsMsg) => {
        try {
          const doc = m.string();
          const e = JSON.parse(doc) as StatusEvent;
          await rows.write(insert, [e.instanceId, e.state, e.clock, doc, e.clock]);
          m.ack();
        } catch (err) {
          console.error(`fleet raw: ${r}: ${(err as Error).message}; redelivered`);
          m.nak(500);
          return;
        }
        if (++applied[r] === total) {
          doneAt[r] = Date.now();
          if (READERS.every((x) => applied[x] >= total)) finish();
        }
      };
      const consumer = await js.consumers.get(RAW_STREAM.name, reader.durable);
      // the server holds each durable to maxAckPending unacked messages: that bounds the handlers in flight
      const iter = await consumer.consume({ max_messages: reader.maxAckPending, expires: PULL_EXPIRES_MS });
      const loop = (async () => {
        for await (const m of iter) void handle(m);
      })();
      stops.push(async () => {
        await iter.close();
        await loop;
      });
    }

    const base = Date.now() * 1000;
    const t0 = Date.now();
    await publishPairs(
      js,
      Array.from({ length: o.instances }, (_, i) => rolloutEvents(tag, o.clusters, i, base + i * 2)),
      rawSubject,
    );
    const published = (Date.now() - t0) / 1000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      allDone,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`fleet raw: not every event applied: ${JSON.stringify(applied)}`)),
          TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    const perReader = Object.fromEntries(
      READERS.map((r) => [r, Math.round(applied[r] / ((doneAt[r] - t0) / 1000))]),
    ) as PerReader<number>;
    const result = { events: total, events_per_s: Math.min(...Object.values(perReader)), per_reader: perReader };
    const took = READERS.map((r) => `${r} ${((doneAt[r] - t0) / 1000).toFixed(2)} s`).join(', ');
    console.error(
      `fleet raw: ${total} events published in ${published.toFixed(2)} s, applied in ${took}: ${JSON.stringify(perReader)} events/s`,
    );
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await jsm.streams.delete(RAW_STREAM.name).catch(() => false);
    await admin.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`).catch(() => {});
    await admin.shutdown();
    await nc.close();
  }
}

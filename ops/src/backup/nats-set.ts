import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager, JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BackupFailed, BackupRefused, describeFile, type ConsumerEntry, type StreamEntry } from './manifest.js';
import { restoreStream, snapshotStream } from './nats-snapshot.js';

const isNotFound = (err: unknown) => err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;

export async function connectNats(url: string): Promise<NatsConnection & AsyncDisposable> {
  try {
    const nc = await connect({ servers: url.split(','), name: 'nvcf-backup', timeout: 5000 });
    return Object.assign(nc, { [Symbol.asyncDispose]: () => nc.close() });
  } catch (err) {
    throw new BackupFailed(`cannot connect to NATS at ${url}`, { cause: err });
  }
}

async function consumersOf(jsm: JetStreamManager, stream: string): Promise<ConsumerEntry[]> {
  const out: ConsumerEntry[] = [];
  for await (const c of jsm.consumers.list(stream))
    out.push({
      name: c.name,
      ackFloor: c.ack_floor.stream_seq,
      pending: c.num_pending,
      ackPending: c.num_ack_pending,
    });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export interface StreamsBackup {
  takenAt: string;
  streams: StreamEntry[];
  /** streams of the release the server does not have (never created): nothing to keep */
  absent: string[];
}

/** Snapshots each of `names` (consumers included) into `<dir>/nats/`, one after the other. */
export async function backupStreams(
  nc: NatsConnection,
  dir: string,
  names: string[],
  log: (line: string) => void,
): Promise<StreamsBackup> {
  const jsm = await jetstreamManager(nc);
  mkdirSync(path.join(dir, 'nats'), { recursive: true });
  const takenAt = new Date().toISOString();
  const streams: StreamEntry[] = [];
  const absent: string[] = [];
  for (const name of names) {
    try {
      await jsm.streams.info(name);
    } catch (err) {
      if (!isNotFound(err)) throw new BackupFailed(`reading stream ${name} failed`, { cause: err });
      absent.push(name);
      log(`nats: ${name} does not exist: nothing to keep`);
      continue;
    }
    const file = `nats/${name}.snapshot`;
    const { config, state } = await snapshotStream(nc, name, path.join(dir, file));
    const consumers = await consumersOf(jsm, name);
    const f = await describeFile(dir, file);
    streams.push({
      name,
      ...f,
      config,
      state,
      messages: state.messages,
      firstSeq: state.first_seq,
      lastSeq: state.last_seq,
      consumers,
    });
    log(
      `nats: ${name}: ${state.messages} message(s) up to #${state.last_seq}, ${consumers.length} consumer(s), ${f.bytes} bytes`,
    );
  }
  return { takenAt, streams, absent };
}

export interface StreamPlan {
  entry: StreamEntry;
  /** it exists on the target (empty, or --replace): deleted before the restore */
  replace: boolean;
}

/** Reads only: which streams of the set exist on the target, and refuses one that holds anything unless `replace`. */
export async function planStreams(nc: NatsConnection, set: StreamEntry[], replace: boolean): Promise<StreamPlan[]> {
  const jsm = await jetstreamManager(nc);
  const plans: StreamPlan[] = [];
  for (const entry of set) {
    let info;
    try {
      info = await jsm.streams.info(entry.name);
    } catch (err) {
      if (!isNotFound(err)) throw new BackupFailed(`reading stream ${entry.name} failed`, { cause: err });
      plans.push({ entry, replace: false });
      continue;
    }
    const { messages, consumer_count } = info.state;
    if ((messages > 0 || consumer_count > 0) && !replace)
      throw new BackupRefused(
        'RESTORE_TARGET_NOT_EMPTY',
        `stream ${entry.name} holds ${messages} message(s) and ${consumer_count} consumer(s): restore into an empty NATS, or pass --replace to delete it first`,
      );
    plans.push({ entry, replace: true });
  }
  return plans;
}

/**
 * Restores each planned stream from its snapshot, deleting what stands in its place first.
 * `replicas` replaces the set's replica count (a set from a 3-node cluster into a single server).
 */
export async function restoreStreams(
  nc: NatsConnection,
  dir: string,
  plans: StreamPlan[],
  replicas: number | undefined,
  log: (line: string) => void,
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const { entry, replace } of plans) {
    if (replace) await jsm.streams.delete(entry.name);
    const config = replicas === undefined ? entry.config : { ...entry.config, num_replicas: replicas };
    const info = await restoreStream(nc, config, entry.state, path.join(dir, entry.file));
    const consumers = await consumersOf(jsm, entry.name);
    log(
      `nats: ${entry.name} restored: ${info.state.messages} message(s) up to #${info.state.last_seq}, ${consumers.length} consumer(s)`,
    );
  }
}

/**
 * JetStream's stream snapshot and restore (the server's `$JS.API.STREAM.SNAPSHOT|RESTORE.<stream>`),
 * which nats.js 3.4 does not wrap. The snapshot is the server's own archive of the stream's store:
 * every message with its headers and sequence, and, unless asked not to, every consumer with its
 * delivered and acknowledged state. It is kept as the bytes the server sent and handed back as is.
 *
 * Snapshot: the server sends chunks to a subject we listen on; each chunk but the last carries a
 * reply subject we answer once it is written (the server keeps a window of unanswered chunks and
 * gives up after 5 s without an answer); an empty message ends it, with a 408 or 500 status when
 * the server failed. Restore: the request answers with a subject to send chunks to; each chunk is
 * a request the server answers once it has taken it, and an empty one ends it, answered with the
 * created stream's info or the error.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { StreamConfig, StreamInfo, StreamState } from '@nats-io/jetstream';
import { createInbox, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { BackupFailed } from './manifest.js';

const API = '$JS.API.STREAM';
const CHUNK = 128 * 1024;
const API_TIMEOUT_MS = 30_000;

interface ApiError {
  code: number;
  err_code?: number;
  description: string;
}
interface ApiResponse {
  error?: ApiError;
}
export interface SnapshotResponse extends ApiResponse {
  config: StreamConfig;
  state: StreamState;
}
interface RestoreResponse extends ApiResponse {
  deliver_subject: string;
}
interface CreateResponse extends ApiResponse, Partial<StreamInfo> {}

function answer<T extends ApiResponse>(msg: Msg, what: string): T {
  let body: T;
  try {
    body = msg.json<T>();
  } catch (err) {
    throw new BackupFailed(`${what}: the server's answer is not JSON`, { cause: err });
  }
  if (body.error)
    throw new BackupFailed(`${what}: ${body.error.description} (${body.error.err_code ?? body.error.code})`);
  return body;
}

/** Writes the snapshot of `stream` to `file`; resolves with the stream's config and state at the snapshot. */
export async function snapshotStream(nc: NatsConnection, stream: string, file: string): Promise<SnapshotResponse> {
  const inbox = createInbox();
  const fd = openSync(file, 'w');
  let finish!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (err) => (err ? reject(err) : resolve());
  });
  // a failed request throws first; its late end must not become an unhandled rejection
  done.catch(() => {});
  const sub = nc.subscribe(inbox, {
    callback: (err, msg) => {
      if (err) return finish(new BackupFailed(`snapshot of ${stream}: ${err.message}`, { cause: err }));
      if (msg.data.length === 0) {
        const code = msg.headers?.code ?? 0;
        return code >= 400
          ? finish(new BackupFailed(`snapshot of ${stream}: the server stopped: ${code} ${msg.headers?.description}`))
          : finish();
      }
      try {
        writeSync(fd, msg.data);
      } catch (e) {
        return finish(new BackupFailed(`snapshot of ${stream}: writing ${file} failed`, { cause: e }));
      }
      // the answer is the server's flow control: it sends more only while few chunks are unanswered
      if (msg.reply) msg.respond();
    },
  });
  try {
    // the server waits briefly for our interest before it sends; have it registered first
    await nc.flush();
    const res = answer<SnapshotResponse>(
      await nc.request(`${API}.SNAPSHOT.${stream}`, JSON.stringify({ deliver_subject: inbox, chunk_size: CHUNK }), {
        timeout: API_TIMEOUT_MS,
      }),
      `snapshot of ${stream}`,
    );
    await done;
    return res;
  } finally {
    sub.unsubscribe();
    closeSync(fd);
  }
}

/**
 * Creates `config.name` from a snapshot `file` taken by snapshotStream. The stream must not exist
 * (the server refuses); resolves with the restored stream's info.
 */
export async function restoreStream(
  nc: NatsConnection,
  config: StreamConfig,
  state: StreamState,
  file: string,
): Promise<StreamInfo> {
  const what = `restore of ${config.name}`;
  const res = answer<RestoreResponse>(
    await nc.request(`${API}.RESTORE.${config.name}`, JSON.stringify({ config, state }), { timeout: API_TIMEOUT_MS }),
    what,
  );
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      // a chunk the server could not write is answered with the error instead of an empty ack
      const ack = await nc.request(res.deliver_subject, buf.subarray(0, n), { timeout: API_TIMEOUT_MS });
      if (ack.data.length) answer<CreateResponse>(ack, what);
    }
  } finally {
    closeSync(fd);
  }
  const created = answer<CreateResponse>(
    await nc.request(res.deliver_subject, new Uint8Array(0), { timeout: API_TIMEOUT_MS }),
    what,
  );
  if (!created.config || !created.state) throw new BackupFailed(`${what}: the server answered without the stream`);
  return created as StreamInfo;
}

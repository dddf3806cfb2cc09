import type { ExecutionResult } from 'graphql';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { serializedResult } from './serialize.js';
import type { StatusRun } from './execute.js';

// All subscriptions of a connection (up to 100) wait on one promise, not one listener pair each.
const draining = new WeakMap<Socket, Promise<void>>();
function drained(tcp: Socket): Promise<void> {
  let p = draining.get(tcp);
  if (!p) {
    p = new Promise<void>((resolve) => {
      const done = () => {
        tcp.off('drain', done);
        tcp.off('close', done);
        draining.delete(tcp);
        resolve();
      };
      tcp.on('drain', done);
      tcp.on('close', done);
    });
    draining.set(tcp, p);
  }
  return p;
}

// The event's JSON as bytes, encoded once per shared result (not once per subscriber).
const encoded = new WeakMap<object, Buffer>();
function bodyOf(result: ExecutionResult): Buffer {
  let b = encoded.get(result);
  if (b === undefined) encoded.set(result, (b = Buffer.from(serializedResult(result))));
  return b;
}

const CLOSE_BRACE = 0x7d;
/** A server-to-client text frame's header size for a payload of `n` bytes (RFC 6455 5.2; never masked). */
const headerSize = (n: number) => (n < 126 ? 2 : n < 65_536 ? 4 : 10);

/**
 * A connection's `next` frames of one turn of the event loop, written as one buffer with one
 * syscall. One event reaches every subscription on a connection in the same turn; framing them
 * here, into one allocation, replaces a `ws.send` per frame (a string concatenation, a UTF-8
 * encode, a header buffer and a write each) with two copies per frame.
 */
class Outbox {
  private heads: Buffer[] = [];
  private bodies: Buffer[] = [];
  private scheduled = false;
  constructor(
    private readonly socket: WebSocket,
    private readonly tcp: Socket,
  ) {}

  push(head: Buffer, body: Buffer) {
    this.heads.push(head);
    this.bodies.push(body);
    // a whole connection's worth goes out at once: the first frames do not wait for other connections' bursts
    if (this.heads.length >= FRAMES_PER_WRITE) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  readonly flush = () => {
    this.scheduled = false;
    const n = this.heads.length;
    if (!n) return;
    const heads = this.heads,
      bodies = this.bodies;
    this.heads = [];
    this.bodies = [];
    // a socket that is closing or closed takes no more data frames (its close frame is out)
    if (this.socket.readyState !== this.socket.OPEN || this.tcp.destroyed) return;
    let size = 0;
    for (let i = 0; i < n; i++) {
      const len = heads[i].length + bodies[i].length + 1;
      size += headerSize(len) + len;
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const head = heads[i],
        body = bodies[i];
      const len = head.length + body.length + 1;
      out[at++] = 0x81; // FIN, text
      if (len < 126) out[at++] = len;
      else if (len < 65_536) {
        out[at++] = 126;
        out.writeUInt16BE(len, at);
        at += 2;
      } else {
        out[at++] = 127;
        out.writeUInt32BE(0, at);
        out.writeUInt32BE(len, at + 4);
        at += 8;
      }
      at += head.copy(out, at);
      at += body.copy(out, at);
      out[at++] = CLOSE_BRACE;
    }
    this.tcp.write(out);
  };
}
/** up to 100 status subscriptions share a connection: one write carries a whole event for all of them */
const FRAMES_PER_WRITE = 128;
const outboxes = new WeakMap<Socket, Outbox>();

/**
 * Whether frames may be written to the TCP socket under ws: only without a negotiated extension
 * (permessage-deflate would need ws's compressor; the gateway does not enable it).
 */
const rawWritable = (socket: WebSocket, tcp: Socket | undefined): tcp is Socket => !!tcp && socket.extensions === '';

/**
 * Writes a status subscription's `next` frames straight to the socket: the frame is the
 * subscription's fixed head plus the event's shared JSON, where graphql-ws would stringify every
 * frame for every subscriber. The subscription runs in push mode: an event's frame is queued in
 * the connection's outbox in the turn the event is read from the stream, with no promise per
 * subscriber. graphql-ws still owns the subscription: it awaits the returned iterator, which
 * yields nothing and settles when the feed ends (done) or fails (the error, as before), and it
 * calls `return()` when the client completes or the socket closes. `tcp` is the connection
 * under the WebSocket: the upgrade request's socket (graphql-ws's `extra.request.socket`), which
 * ws writes to, so its backpressure is the WebSocket's. Frames of one turn are batched per
 * connection (Outbox); ws's own frames (graphql-ws's `complete`, pings) are written by ws
 * directly, so the outbox is flushed before this iterator settles and graphql-ws sends `complete`.
 */
export function sendFramesDirectly(
  run: StatusRun,
  socket: WebSocket,
  tcp: Socket | undefined,
  id: string,
  release: () => void,
): AsyncIterableIterator<never> {
  const headText = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  let box: Outbox | undefined;
  if (rawWritable(socket, tcp)) {
    box = outboxes.get(tcp);
    if (!box) outboxes.set(tcp, (box = new Outbox(socket, tcp)));
  }
  const ended = box
    ? pushFrames(run, socket, tcp!, box, Buffer.from(headText))
    : pullFrames(run, socket, tcp, headText);
  ended.catch(() => {}); // surfaced through next()
  const done = { done: true as const, value: undefined as never };
  const it: AsyncIterableIterator<never> = {
    next: async () => {
      try {
        await ended;
        return done;
      } finally {
        // this subscription's last frames go out before graphql-ws writes its `complete` or error
        box?.flush();
        release();
      }
    },
    return: async () => {
      release();
      await run.events.return?.();
      return done;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

/** Settles when the subscription ends; frames go into the connection's outbox as events arrive. */
function pushFrames(run: StatusRun, socket: WebSocket, tcp: Socket, box: Outbox, head: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const resume = run.push({
      push: (result) => {
        if (socket.readyState !== socket.OPEN) {
          resolve();
          return false;
        }
        box.push(head, bodyOf(result));
        if (!tcp.writableNeedDrain) return true;
        // backpressure: a socket the kernel is not taking from takes no more events, so its feed
        // conflates instead of the gateway buffering without bound
        void drained(tcp).then(() => resume());
        return false;
      },
      end: (err) => (err ? reject(err) : resolve()),
    });
  });
}

/** Without raw frames (a negotiated extension): pulls each result and sends it through ws. */
async function pullFrames(run: StatusRun, socket: WebSocket, tcp: Socket | undefined, headText: string) {
  for (;;) {
    const r = await run.events.next();
    if (r.done || socket.readyState !== socket.OPEN) return;
    socket.send(`${headText}${serializedResult(r.value.result)}}`);
    if (tcp?.writableNeedDrain) await drained(tcp);
  }
}

import type { Socket } from 'node:net';
import type { WebSocket as Ws } from 'ws';
import { CloseCode, type WebSocket } from 'graphql-ws';
import { createLogger } from '@nvcf/logging';
import { Outbox } from '@nvcf/http';

const log = createLogger('gateway');
const OPEN = 1; // ws's WebSocket.OPEN

/** One subscription's `next` messages, each around a payload whose bytes many subscriptions share. */
export interface NextWriter {
  /** false: write no more now; wait for `writable()` while the connection is `open`, else stop */
  write(payload: Buffer): boolean;
  readonly open: boolean;
  /** settles once the socket takes more, or is gone */
  writable(): Promise<void>;
}

export interface ConnectionOptions {
  /** a ping this often; no pong by the next one ends the connection (0: no keepalive) */
  keepAliveMs?: number;
}

/**
 * The one owner of a graphql-ws connection's socket: graphql-ws speaks the protocol through it
 * (`send`, `close`, `onMessage`, as its `use/ws` adapter does), status subscriptions write their
 * `next` messages through `nextWriter`, and every message of a turn of the event loop goes out
 * as one write (Outbox), in the order it was sent, to the TCP socket under the WebSocket. That is
 * the socket ws writes to, so its backpressure is the WebSocket's: `writable()` waits for it to
 * drain, and a `next` write says when the subscription should stop pushing and wait instead of
 * the connection buffering without bound. ws still writes its own control frames (close, ping,
 * pong) itself; each is a whole frame, and a close flushes the messages queued before it.
 */
export class Connection implements WebSocket {
  readonly protocol: string;
  private readonly outbox: Outbox;
  // graphql-ws awaits each send for flow control: the sends of one batch share one promise
  private sent: { promise: Promise<void>; resolve: () => void } | null = null;
  // all subscriptions of a connection (up to 100) wait on one promise, not one listener pair each
  private drained: Promise<void> | null = null;
  private keepAlive: NodeJS.Timeout | null = null;

  constructor(
    private readonly ws: Ws,
    private readonly tcp: Socket,
    opts: ConnectionOptions = {},
  ) {
    // permessage-deflate would need ws's compressor for every frame: the server never enables it
    if (ws.extensions !== '') throw new Error(`no WebSocket extension is supported (negotiated '${ws.extensions}')`);
    this.protocol = ws.protocol;
    this.outbox = new Outbox(this.writeFrames);
    // ws closes the socket after an error; a second one must not go unhandled either
    ws.on('error', (err) => {
      log.error('websocket error', err);
      this.close(CloseCode.InternalServerError, 'Internal server error');
    });
    ws.once('close', () => this.stop());
    const every = opts.keepAliveMs ?? 12_000;
    if (every > 0 && Number.isFinite(every)) {
      let alive = true;
      ws.on('pong', () => (alive = true));
      this.keepAlive = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        if (ws.readyState === ws.OPEN) ws.ping();
      }, every);
    }
  }

  /** whether messages still go out: not once a close frame is sent or received */
  get open() {
    return this.ws.readyState === OPEN && !this.tcp.destroyed;
  }

  /** graphql-ws's messages; a socket that is no longer open takes them silently, as `use/ws` does */
  send(data: string): Promise<void> {
    if (!this.open) return Promise.resolve();
    // taken before the push: a push that fills the batch writes it, and settles this promise, at once
    const sent = (this.sent ??= deferred());
    this.outbox.push(null, Buffer.from(data));
    return sent.promise;
  }

  /** Closes with graphql-ws's (or the gateway's) code, after the messages queued before it. */
  close(code?: number, reason?: string) {
    if (this.open) this.outbox.flush();
    this.ws.close(code, reason);
  }

  onMessage(cb: (data: string) => Promise<void>) {
    this.ws.on('message', (data) => {
      cb(String(data as Buffer)).catch((err: unknown) => {
        log.error('websocket message failed', err);
        this.close(CloseCode.InternalServerError, 'Internal server error');
      });
    });
  }

  /** The explicit path for a subscription's `next` messages: the head is encoded once, the payload is shared. */
  nextWriter(id: string): NextWriter {
    return new Next(
      this,
      this.ws,
      this.tcp,
      this.outbox,
      Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`),
    );
  }

  /** Settles when the socket drains or closes. */
  writable(): Promise<void> {
    if (!this.tcp.writableNeedDrain || this.tcp.destroyed) return Promise.resolve();
    return (this.drained ??= new Promise<void>((resolve) => {
      const done = () => {
        this.tcp.off('drain', done);
        this.tcp.off('close', done);
        this.drained = null;
        resolve();
      };
      this.tcp.on('drain', done);
      this.tcp.on('close', done);
    }));
  }

  private readonly writeFrames = (frames: Buffer) => {
    const sent = this.sent;
    this.sent = null;
    // a socket that is closing or closed takes no more data frames (its close frame is out)
    if (this.open) this.tcp.write(frames);
    if (!sent) return;
    if (this.tcp.writableNeedDrain) void this.writable().then(sent.resolve);
    else sent.resolve();
  };

  private stop() {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
    this.outbox.clear();
    this.sent?.resolve();
    this.sent = null;
  }
}

/** runs per subscriber and event: no more than the checks it needs */
class Next implements NextWriter {
  constructor(
    private readonly connection: Connection,
    private readonly ws: Ws,
    private readonly tcp: Socket,
    private readonly outbox: Outbox,
    private readonly head: Buffer,
  ) {}
  write(payload: Buffer) {
    if (this.ws.readyState !== OPEN) return false;
    this.outbox.push(this.head, payload);
    return !this.tcp.writableNeedDrain;
  }
  get open() {
    return this.connection.open;
  }
  writable() {
    return this.connection.writable();
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

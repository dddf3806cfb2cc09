// RFC 6455 text frames written straight to a connection's TCP socket, one write per connection
// per turn of the event loop: the batching the gateway's status fan-out does, so the ceiling
// batches no less than what it bounds.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

const CLOSE_BRACE = 0x7d;
/** A server-to-client frame's header size for a payload of `n` bytes (RFC 6455 5.2; never masked). */
const headerSize = (n: number) => (n < 126 ? 2 : n < 65_536 ? 4 : 10);

/**
 * Text frames whose payloads are `head + body + '}'`: a `next` message is the subscription's
 * fixed head, the event's shared payload and the closing brace, copied into one buffer.
 */
export function encodeFrames(heads: readonly Buffer[], bodies: readonly Buffer[]): Buffer {
  let size = 0;
  for (let i = 0; i < heads.length; i++) {
    const len = heads[i].length + bodies[i].length + 1;
    size += headerSize(len) + len;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < heads.length; i++) {
    const len = heads[i].length + bodies[i].length + 1;
    out[at++] = 0x81; // FIN, text
    if (len < 126) out[at++] = len;
    else if (len < 65_536) {
      out[at++] = 126;
      out.writeUInt16BE(len, at);
      at += 2;
    } else {
      out[at++] = 127;
      out.writeUInt32BE(Math.floor(len / 2 ** 32), at);
      out.writeUInt32BE(len >>> 0, at + 4);
      at += 8;
    }
    at += heads[i].copy(out, at);
    at += bodies[i].copy(out, at);
    out[at++] = CLOSE_BRACE;
  }
  return out;
}

/**
 * A connection's frames of one turn, written with one syscall when the turn ends. No cap on a
 * write and no backpressure: the ceiling may buffer without bound, but it never drops a frame.
 */
export class Outbox {
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
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = () => {
    this.scheduled = false;
    const heads = this.heads,
      bodies = this.bodies;
    this.heads = [];
    this.bodies = [];
    // after its close frame a socket takes no data frames
    if (!heads.length || this.socket.readyState !== this.socket.OPEN || this.tcp.destroyed) return;
    this.tcp.write(encodeFrames(heads, bodies));
  };
}

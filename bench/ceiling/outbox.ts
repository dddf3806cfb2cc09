// RFC 6455 text frames written straight to a connection's TCP socket, one write per connection
// per turn of the event loop: the batching the gateway's status fan-out does, so the ceiling
// batches no less than what it bounds.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
// the framing the gateway uses, from the library it is in: the ceiling encodes exactly as ours does
import { encodeTextFrames } from '@nvcf/http';

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
    this.tcp.write(encodeTextFrames(heads, bodies));
  };
}

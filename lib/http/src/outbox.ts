import { encodeTextFrames } from './ws-frames.js';

/** up to 100 status subscriptions share a connection: one write carries a whole event for all of them */
export const FRAMES_PER_WRITE = 128;

/**
 * A connection's text frames of one turn of the event loop, framed into one buffer and handed to
 * `write` once. One event reaches every subscription on a connection in the same turn; framing
 * them here, into one allocation, replaces a `ws.send` per message (a string concatenation, a
 * UTF-8 encode, a header buffer and a write each) with two copies per frame. A frame is either a
 * whole message, or a `next` message's fixed head, a payload shared by many frames, and the
 * closing brace: the payload's bytes are encoded once, whatever the number of subscribers.
 */
export class Outbox {
  private heads: (Buffer | null)[] = [];
  private bodies: Buffer[] = [];
  private scheduled = false;
  constructor(
    private readonly write: (frames: Buffer) => void,
    private readonly maxFrames = FRAMES_PER_WRITE,
  ) {}

  /** queues a message: `body` alone, or `head` + `body` + `}` */
  push(head: Buffer | null, body: Buffer) {
    this.heads.push(head);
    this.bodies.push(body);
    // a whole connection's worth goes out at once: the first frames do not wait for other connections' bursts
    if (this.heads.length >= this.maxFrames) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** drops what is queued (the socket is gone) */
  clear() {
    this.heads = [];
    this.bodies = [];
  }

  readonly flush = () => {
    this.scheduled = false;
    const n = this.heads.length;
    if (!n) return;
    const heads = this.heads,
      bodies = this.bodies;
    this.heads = [];
    this.bodies = [];
    this.write(encodeTextFrames(heads, bodies, n));
  };
}

/** A server-to-client frame's header size for a payload of `n` bytes (RFC 6455 5.2; never masked). */
const headerSize = (n: number) => (n < 126 ? 2 : n < 65_536 ? 4 : 10);
const CLOSE_BRACE = 0x7d;

const messageSize = (head: Buffer | null, body: Buffer) => (head ? head.length + body.length + 1 : body.length);

/**
 * The first `n` messages as RFC 6455 text frames in one buffer, for one socket write. A message
 * is `body` alone, or `head` + `body` + `}`: a graphql-ws `next` is its subscription's fixed
 * head, a payload many frames share, and the closing brace, so the payload's bytes are encoded
 * once whatever the number of subscribers and each frame costs two copies.
 */
export function encodeTextFrames(
  heads: readonly (Buffer | null)[],
  bodies: readonly Buffer[],
  n = heads.length,
): Buffer {
  let size = 0;
  for (let i = 0; i < n; i++) {
    const len = messageSize(heads[i], bodies[i]);
    size += headerSize(len) + len;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const head = heads[i],
      body = bodies[i];
    const len = messageSize(head, body);
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
    if (head) at += head.copy(out, at);
    at += body.copy(out, at);
    if (head) out[at++] = CLOSE_BRACE;
  }
  return out;
}

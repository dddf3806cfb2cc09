import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/**
 * Reads a request body with a hard cap, so a huge document cannot exhaust memory. Past the cap it
 * rejects with BodyTooLarge and leaves the request paused, not destroyed: destroying it resets the
 * connection while the client is still sending, and the client then never sees the answer
 * (discardBody lets it).
 */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        done();
        req.pause();
        reject(new BodyTooLarge(`request body exceeds ${limitBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Reads and throws away what is left of a refused request's body, so that the client, still
 * sending, stays connected until it reads the answer; past `maxBytes` the connection is cut (a
 * client may not make the server read without end). Resolves once the body ended or was cut.
 */
export function discardBody(req: IncomingMessage, maxBytes: number): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let size = 0;
    const finish = () => {
      req.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish();
        req.socket.destroy();
      }
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
  });
}

export interface SendOptions {
  /**
   * The answer is written whole at once, but its end waits for this: with `Connection: close`,
   * ending the response closes the socket, which must wait until the request body was read.
   */
  endAfter?: Promise<void>;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  opts: SendOptions = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  if (!opts.endAfter) {
    res.end(text);
    return;
  }
  res.write(text);
  void opts.endAfter.then(() => res.end());
}

export const graphqlError = (code: string, message: string) => ({ errors: [{ message, extensions: { code } }] });

import { createServer, type Server } from 'node:http';
import { readBody, discardBody, sendJson, BodyTooLarge, listen } from '../src/index.js';

describe('readBody and discardBody', () => {
  let server: Server;
  let url: string;
  /** whether the last refused request's body was read to its end (false: the connection was cut) */
  let discarded: Promise<boolean> = Promise.resolve(false);
  beforeAll(async () => {
    server = createServer((req, res) => {
      readBody(req, 1024).then(
        (body) => sendJson(res, 200, { length: body.length }),
        (err: unknown) => {
          if (!(err instanceof BodyTooLarge)) throw err;
          const rest = discardBody(req, 1024 * 1024);
          discarded = rest.then(() => req.complete);
          sendJson(res, 413, { error: err.message }, { connection: 'close' }, { endAfter: rest });
        },
      );
    });
    url = await listen(server, 0);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('reads a body within the limit', async () => {
    const res = await fetch(url, { method: 'POST', body: 'x'.repeat(1024) });
    expect(await res.json()).toEqual({ length: 1024 });
  });

  it('answers a body over the limit while it is still sent, and reads the rest before closing', async () => {
    const res = await fetch(url, { method: 'POST', body: Buffer.alloc(512 * 1024, 'x') });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ error: 'request body exceeds 1024 bytes' });
    expect(await discarded).toBe(true);
  });

  it('cuts the connection past the discard bound', async () => {
    const sent = fetch(url, { method: 'POST', body: Buffer.alloc(8 * 1024 * 1024, 'x') }).then(
      (res) => res.status,
      (err: Error) => err.name,
    );
    // a 413 that arrived before the cut, or the reset itself: never a body read to its end
    expect([413, 'TypeError']).toContain(await sent);
    expect(await discarded).toBe(false);
  });
});

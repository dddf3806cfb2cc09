import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { withoutStall } from '@nvcf/test';

/** The stall probe the abuse corpus relies on: it must tell a blocked event loop from a passing hiccup. */
describe('withoutStall', () => {
  const server = createServer((_req, res) => res.end('ok'));
  let url: string;
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // blocks the loop the server and the probe share, as an expensive request would block the gateway's
  const block = async (ms: number) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('reports a stall that every attempt repeats', async () => {
    let calls = 0;
    const seen = await withoutStall(url, async () => {
      calls++;
      await block(300);
    });
    expect({ stalled: seen.stalled, calls, failed: seen.failed }).toEqual({ stalled: true, calls: 3, failed: 0 });
    expect(seen.worstMs).toBeGreaterThanOrEqual(300);
  });

  it('forgives a slow probe that the next attempt does not repeat', async () => {
    const seen = await withoutStall(url, async (attempt) => {
      if (attempt === 0) await block(300);
      return attempt;
    });
    expect({ stalled: seen.stalled, attempt: seen.result }).toEqual({ stalled: false, attempt: 1 });
  });
});

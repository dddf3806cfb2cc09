/**
 * The Service stand-in of the production topology (`npm run start:prod`, the rolling test): a
 * backend that says it is not ready leaves at once; one that is merely slow to answer its probe
 * (a busy machine) stays for a while, as a readiness probe's failureThreshold keeps it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBalancer } from '@nvcf/local/topology';
import { waitUntil } from '@nvcf/testing';

function backend(): Promise<{
  url: string;
  mode: { ready: 'yes' | 'no' | 'hang' };
  close(): Promise<void>;
  probes: () => number;
}> {
  const mode = { ready: 'yes' as 'yes' | 'no' | 'hang' };
  let probes = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/ready') {
      probes++;
      if (mode.ready === 'hang') return; // answers nothing: the probe times out
      res.writeHead(mode.ready === 'yes' ? 200 : 503).end();
      return;
    }
    res.writeHead(200).end('ok');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        mode,
        probes: () => probes,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

describe('the topology balancer', () => {
  it('keeps a ready backend whose probe is slow for two checks; drops a draining one at once', async () => {
    const a = await backend();
    const b = await backend();
    const c = await backend();
    await using lb = await startBalancer({ backends: [a.url, b.url, c.url], checkMs: 100 });
    try {
      expect(lb.ready().sort()).toEqual([a.url, b.url, c.url].sort());
      // c's process is gone: its port refuses, it leaves at the next check (no three-probe grace)
      await c.close();
      const goneAt = Date.now();
      await waitUntil(() => !lb.ready().includes(c.url), { what: 'c out of the Service' });
      expect(Date.now() - goneAt).toBeLessThan(1000);
      // b drains: 503 from its next check on
      b.mode.ready = 'no';
      await waitUntil(() => !lb.ready().includes(b.url), { what: 'b out of the Service' });
      // a is slow (each probe times out after 1 s): it stays while the first two time out, then goes
      a.mode.ready = 'hang';
      const from = a.probes();
      await waitUntil(() => a.probes() >= from + 2, { what: 'two probes of a sent', timeoutMs: 5000 });
      expect(lb.ready()).toEqual([a.url]);
      expect(await (await fetch(lb.url)).text()).toBe('ok');
      await waitUntil(() => lb.ready().length === 0, { what: 'a out after three slow probes', timeoutMs: 10_000 });
      expect((await fetch(lb.url)).status).toBe(503);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);

  it('routes to a backend added as ready at once, though its first probes are slow', async () => {
    const old = await backend();
    const next = await backend();
    await using lb = await startBalancer({ backends: [old.url], checkMs: 100 });
    try {
      // a rolling replacement: the new process said ready (the caller waited for it), then the old
      // one leaves; on a busy host the new one's probes time out for a while
      next.mode.ready = 'hang';
      lb.setBackends([next.url]);
      old.mode.ready = 'no';
      expect(lb.ready()).toEqual([next.url]);
      expect(await (await fetch(lb.url)).text()).toBe('ok');
      const from = next.probes();
      await waitUntil(() => next.probes() >= from + 1, { what: 'a probe of the new backend sent', timeoutMs: 5000 });
      expect(lb.ready()).toEqual([next.url]);
      // its probes answer again: it stays
      next.mode.ready = 'yes';
      await waitUntil(() => next.probes() >= from + 3, { what: 'more probes', timeoutMs: 10_000 });
      expect(lb.ready()).toEqual([next.url]);
    } finally {
      await old.close();
      await next.close();
    }
  }, 30_000);
});

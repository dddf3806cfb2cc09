/** The agent process's probes answer from the agent's phase. */
import type { Server } from 'node:http';
import { listen, closeServer } from '@nvcf/http';
import type { Phase } from '@nvcf/lifecycle';
import { createProbeServer } from '../src/probes.js';

describe('agent probes', () => {
  let server: Server;
  let url: string;
  let phase: Phase;

  beforeAll(async () => {
    server = createProbeServer({ clusterId: 'c1', phase: () => phase, metrics: () => 'up 1\n' });
    url = await listen(server, 0, '127.0.0.1');
  });
  afterAll(() => closeServer(server, { graceMs: 0 }));

  const get = async (path: string) => {
    const r = await fetch(`${url}${path}`);
    return { status: r.status, body: await r.text() };
  };

  it('is ready while the agent consumes, 503 draining from the moment it drains', async () => {
    phase = { kind: 'ready' };
    expect(await get('/ready')).toEqual({ status: 200, body: JSON.stringify({ status: 'ready', cluster: 'c1' }) });
    phase = { kind: 'draining', since: Date.now() };
    expect(await get('/ready')).toEqual({ status: 503, body: JSON.stringify({ status: 'draining' }) });
    phase = { kind: 'stopped' };
    expect((await get('/ready')).status).toBe(503);
  });

  it('is healthy whatever the phase, and serves its metrics', async () => {
    phase = { kind: 'draining', since: 0 };
    expect(await get('/health')).toEqual({ status: 200, body: JSON.stringify({ status: 'ok', cluster: 'c1' }) });
    expect(await get('/metrics')).toEqual({ status: 200, body: 'up 1\n' });
    expect((await get('/other')).status).toBe(404);
  });
});

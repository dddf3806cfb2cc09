import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { freePort, startService, PortInUseError, type ServiceProcess } from '@nvcf/local/topology';
import { describeReal, gatewayProcessEnv, realEnv, startGatewayProcess } from '@nvcf/test';

describe('freePort', () => {
  it('never hands out the same port twice in one process', async () => {
    const ports = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});

/** a socket on `port` that answers nothing (and keeps no probe's connection open) */
async function squat(port: number): Promise<Server> {
  const s = createServer((socket) => socket.destroy()).listen(port, '127.0.0.1');
  await once(s, 'listening');
  return s;
}

describeReal('NATS JetStream', () => {
  // never asked: the gateway binds its port before it fetches a subgraph's schema
  const nowhere = 'http://127.0.0.1:9/graphql';
  const subgraphs = { nvcf: nowhere, icms: nowhere, 'nvca-status': nowhere, nvct: nowhere };
  const secret = 'port-in-use-0123456789';

  it('a service whose port was taken after it was picked fails with PortInUseError', async () => {
    const port = await freePort();
    const squatter = await squat(port);
    try {
      await expect(
        startGatewayProcess({
          subgraphs,
          natsUrl: realEnv().natsUrl,
          secret,
          port,
        }),
      ).rejects.toBeInstanceOf(PortInUseError);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  it('startService picks a new port and starts a new process when its port was taken', async () => {
    const taken = await freePort();
    const squatter = await squat(taken);
    const spawned: ServiceProcess[] = [];
    let picks = 0;
    try {
      const p = await startService(
        {
          name: 'gateway',
          kind: 'gateway',
          mode: 'source',
          port: async () => (picks++ === 0 ? taken : freePort()),
          metricsPort: freePort,
          env: gatewayProcessEnv({ subgraphs, natsUrl: realEnv().natsUrl, secret }),
        },
        { spawned: (s) => spawned.push(s) },
      );
      try {
        expect(spawned).toHaveLength(2);
        expect(await spawned[0].exited).not.toBe(0);
        expect(p).toBe(spawned[1]);
        expect(p.url).not.toContain(`:${taken}`);
        expect((await fetch(`${p.url}/health`)).status).toBe(200);
      } finally {
        await p.stop();
      }
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });
});

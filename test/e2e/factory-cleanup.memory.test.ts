/**
 * A factory that fails half-way releases what it had started: a service whose port is taken
 * leaves no consumer running on the bus, an agent whose third consumer cannot start stops the
 * first two. Checked through a bus that records every consumer it hands out.
 */
import { createServer, type Server } from 'node:http';
import { createMemoryBus, type Bus, type Consumer } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { listen, closeServer } from '@nvcf/http';
import { startAgent, createSimulatedCluster } from '@nvcf/agent';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { createNvcfServer, createMemoryNvcfStore, httpIcmsClient } from '@nvcf/subgraph-nvcf';
import { createIcmsServer, createMemoryIcmsStore } from '@nvcf/subgraph-icms';
import { createStatusServer, createMemoryStatusStore } from '@nvcf/subgraph-nvca-status';

/** A bus that counts consumers started and stopped, and can refuse the n-th consume. */
function recordingBus(failConsumeNumber?: number) {
  const inner = createMemoryBus();
  const running = new Set<string>();
  let consumes = 0;
  const bus: Bus = {
    ...inner,
    async consume(opts, handler) {
      if (++consumes === failConsumeNumber) throw new Error(`consume #${consumes} refused by the test`);
      const c = await inner.consume(opts, handler);
      running.add(opts.durable);
      const recorded: Consumer = {
        stop: async (o) => {
          running.delete(opts.durable);
          await c.stop(o);
        },
      };
      return recorded;
    },
  };
  return { bus, running, consumes: () => consumes, dispose: () => inner.dispose() };
}

describe('a factory that fails half-way', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    port = Number(new URL(await listen(taken, 0)).port);
  });
  afterAll(() => closeServer(taken));

  const secret = 'x'.repeat(32);

  it.each([
    [
      'nvcf',
      (bus: Bus) =>
        createNvcfServer({
          store: createMemoryNvcfStore(),
          bus,
          secret,
          port,
          registry: loadRegistry(defaultRegistryPath()),
          icms: httpIcmsClient(() => 'http://127.0.0.1:1', secret),
        }),
    ],
    ['icms', (bus: Bus) => createIcmsServer({ store: createMemoryIcmsStore(), bus, secret, port })],
    [
      'nvca-status',
      (bus: Bus) => createStatusServer({ store: createMemoryStatusStore(), bus, secret, cursorSecret: secret, port }),
    ],
  ])('%s: a taken port leaves no consumer running', async (_name, create) => {
    const rec = recordingBus();
    await rec.bus.ensureStreams(allStreams);
    await expect(create(rec.bus)).rejects.toThrow(/EADDRINUSE/);
    expect(rec.consumes()).toBeGreaterThan(0); // it got as far as its consumers
    expect([...rec.running]).toEqual([]);
    await rec.dispose();
  });

  it('agent: a consumer that cannot start stops the ones started before it', async () => {
    const rec = recordingBus(3);
    await rec.bus.ensureStreams(allStreams);
    const driver = createSimulatedCluster({ clusterId: 'cleanup-a', registry: loadRegistry(defaultRegistryPath()) });
    await expect(startAgent({ bus: rec.bus, driver, operatorCheckMs: 0 })).rejects.toThrow('consume #3 refused');
    expect(rec.consumes()).toBe(3);
    expect([...rec.running]).toEqual([]);
    await rec.dispose();
  });
});

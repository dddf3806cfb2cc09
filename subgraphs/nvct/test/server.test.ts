import { createMemoryBus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { waitUntil } from '@nvcf/testing';
import { createMemoryTaskStore, createNvctServer, type TaskStore } from '../src/index.js';
import { announce } from '../src/lifecycle.js';
import { queuedTask } from './fixtures.js';

/** what every server of these tests shares: the registry, the secret, an ephemeral port */
const serving = {
  registry: loadRegistry(defaultRegistryPath()),
  secret: 'nvct-test-secret-0123456789abcdef',
  port: 0,
  host: '127.0.0.1',
};

describe('nvct server', () => {
  it('sweeps deadlines on its own clock and counts each transition on /metrics; drains on dispose', async () => {
    const bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    const store = createMemoryTaskStore();
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    // the fixture's maxQueuedDuration is PT1H: the server's clock is already past it
    const server = await createNvctServer({
      ...serving,
      store,
      bus,
      clock: () => new Date(t0 + 2 * 3_600_000),
      deadlineSweepMs: 50,
    });
    try {
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      const t = queuedTask('s1', 'nca-a', new Date(t0).toISOString());
      await store.create(t);
      await announce({ bus }, t);
      await waitUntil(async () => (await store.get(['s1']))[0]!.status === 'EXCEEDED_MAX_QUEUED_DURATION', {
        what: 'the sweep to end the task',
      });
      const text = await (await fetch(`${server.url}/metrics`)).text();
      expect(text).toContain('nvcf_nvct_task_transitions_total{status="EXCEEDED_MAX_QUEUED_DURATION"} 1');
      expect(text).toContain('nvcf_nvct_requests_total');
    } finally {
      await server.dispose();
      await bus.dispose();
    }
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('in one pass ends the overdue tasks and offers only the rest to ICMS, listing the open tasks once', async () => {
    const bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    const memory = createMemoryTaskStore();
    let listings = 0;
    let listingsAtFirstOffer = 0;
    const store: TaskStore = Object.assign(Object.create(memory) as TaskStore, {
      listOpen: () => {
        listings++;
        return memory.listOpen();
      },
    });
    const offered: string[] = [];
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    const now = t0 + 2 * 3_600_000;
    // s1 is past its PT1H queue deadline; s2 was just created
    await memory.create(queuedTask('s1', 'nca-a', new Date(t0).toISOString()));
    await memory.create(queuedTask('s2', 'nca-a', new Date(now).toISOString()));
    const server = await createNvctServer({
      ...serving,
      store,
      bus,
      clock: () => new Date(now),
      deadlineSweepMs: 50,
      placeTask: async (_tenant, p) => {
        offered.push(p.run.taskId);
        listingsAtFirstOffer ||= listings;
        return { clusterId: 'c1' };
      },
    });
    try {
      await waitUntil(async () => (await memory.get(['s2']))[0]!.status === 'LAUNCHED', {
        what: 's2 to be placed',
      });
      expect((await memory.get(['s1']))[0]!.status).toBe('EXCEEDED_MAX_QUEUED_DURATION');
      expect(offered).toEqual(['s2']);
      // the first pass listed the open tasks once, for the sweep and the placement both
      expect(listingsAtFirstOffer).toBe(1);
    } finally {
      await server.dispose();
      await bus.dispose();
    }
  });
});

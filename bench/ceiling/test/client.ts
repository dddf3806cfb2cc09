// A raw `ws` client speaking graphql-transport-ws to the ceiling: frames that ws accepts are
// valid RFC 6455 frames (it fails the connection on anything else).
import WebSocket from 'ws';
import { createMemoryBus, type Bus } from '@nvcf/bus';
import { allStreams, subjects, type StatusEvent } from '@nvcf/contracts';

export interface Next {
  id: string;
  type: string;
  payload: { data: { instanceStatusChanged: { cursor: string; message: string | null } } };
}

export async function memoryBus(): Promise<Bus> {
  const bus = createMemoryBus();
  await bus.ensureStreams(allStreams);
  return bus;
}

export const event = (functionId: string, message: string, clock = 1): StatusEvent => ({
  ncaId: 'nca-a',
  functionId,
  versionId: `${functionId}-v`,
  gpuSpecificationId: 's',
  clusterId: 'cluster-a',
  instanceId: 'i0',
  state: 'ACTIVE',
  previousState: 'ACTIVE',
  revisionId: null,
  at: new Date(1_800_000_000_000).toISOString(),
  clock,
  message,
});

export const publish = (bus: Bus, e: StatusEvent) => bus.publish(subjects.status(e.ncaId, e.instanceId), e);

/** Connects, subscribes `ids` and returns once the server has taken every subscribe (a pong follows them). */
export async function subscribed(url: string, ids: string[]) {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const received: Next[] = [];
  const waiters: (() => void)[] = [];
  let failure: Error | undefined;
  ws.on('error', (err) => (failure = err));
  ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString()) as Next;
    if (m.type === 'next') received.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise((r) => ws.once('open', r));
  const reply = (type: string) =>
    new Promise<void>((resolve) =>
      ws.once('message', (raw: Buffer) => {
        expect((JSON.parse(raw.toString()) as { type: string }).type).toBe(type);
        resolve();
      }),
    );
  const ack = reply('connection_ack');
  ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  await ack;
  for (const id of ids) ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query: 'subscription { x }' } }));
  const pong = reply('pong');
  ws.send(JSON.stringify({ type: 'ping' }));
  await pong;
  return {
    received,
    /** resolves once `n` next messages arrived in all */
    async until(n: number) {
      while (received.length < n) {
        if (failure) throw failure;
        await new Promise<void>((r) => waiters.push(r));
      }
      if (failure) throw failure;
    },
    [Symbol.dispose]: () => ws.terminate(),
  };
}

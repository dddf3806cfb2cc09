import { Socket } from 'node:net';
import { startCeiling } from '../fanout.js';
import { memoryBus, event, publish, subscribed } from './client.js';

/** Records every write to a server-side socket on `port` while `body` runs. */
async function writesOn<T>(port: number, body: () => Promise<T>): Promise<Buffer[]> {
  const writes: Buffer[] = [];
  // its overloads taken as one signature: the wrapper passes whatever it is given through
  const proto = Socket.prototype as unknown as { write(this: Socket, ...args: unknown[]): boolean };
  const write = proto.write;
  proto.write = function (this: Socket, ...args: unknown[]) {
    if (this.localPort === port && Buffer.isBuffer(args[0])) writes.push(args[0]);
    return write.apply(this, args);
  };
  try {
    await body();
  } finally {
    proto.write = write;
  }
  return writes;
}

const portOf = (url: string) => Number(new URL(url).port);

describe('the fair ceiling', () => {
  it('writes one event for N subscriptions of a connection as N frames in one write', async () => {
    const bus = await memoryBus();
    await using ceiling = await startCeiling({ bus, tenant: 'nca-a', functionId: 'fn' });
    const ids = Array.from({ length: 100 }, (_, i) => `s${i}`);
    using client = await subscribed(ceiling.url, ids);

    const writes = await writesOn(portOf(ceiling.url), async () => {
      await publish(bus, event('fn', 'one'));
      await client.until(ids.length);
    });

    expect(writes).toHaveLength(1);
    expect(client.received.map((m) => m.id).sort()).toEqual([...ids].sort());
    for (const m of client.received) {
      expect(m.type).toBe('next');
      expect(m.payload.data.instanceStatusChanged.message).toBe('one');
    }
    // the write is exactly the frames: a 4-byte header each (126 ≤ length < 64 KiB), then the message
    const frames = client.received.map((m) => 4 + Buffer.byteLength(JSON.stringify(m)));
    expect(writes[0].length).toBe(frames.reduce((a, b) => a + b, 0));
    await bus.dispose();
  });

  it('batches the events of one turn into one write per connection, for every connection', async () => {
    const bus = await memoryBus();
    await using ceiling = await startCeiling({ bus, tenant: 'nca-a', functionId: 'fn' });
    using a = await subscribed(ceiling.url, ['a1', 'a2', 'a3']);
    using b = await subscribed(ceiling.url, ['b1']);

    const writes = await writesOn(portOf(ceiling.url), async () => {
      await Promise.all([publish(bus, event('fn', 'x', 1)), publish(bus, event('fn', 'y', 2))]);
      await Promise.all([a.until(6), b.until(2)]);
    });

    expect(writes).toHaveLength(2);
    expect(b.received.map((m) => m.payload.data.instanceStatusChanged.message)).toEqual(['x', 'y']);
    await bus.dispose();
  });

  it('frames a message past 64 KiB with the 64-bit length, and skips other functions', async () => {
    const bus = await memoryBus();
    await using ceiling = await startCeiling({ bus, tenant: 'nca-a', functionId: 'fn' });
    using client = await subscribed(ceiling.url, ['s']);
    const big = 'm'.repeat(70_000);

    await publish(bus, event('other', 'not this one', 1));
    await publish(bus, event('fn', big, 2));
    await client.until(1);

    expect(client.received).toHaveLength(1);
    expect(client.received[0].payload.data.instanceStatusChanged.message).toBe(big);
    await bus.dispose();
  });
});

import { startStatusWs, until } from './harness.js';

describe('the graphql-ws connection', () => {
  it('writes one event for N subscriptions of a connection as one write of N frames', async () => {
    await using server = await startStatusWs();
    using client = await server.open();
    await client.init();
    const n = 50;
    for (let i = 0; i < n; i++) client.subscribe(`s${i}`);
    await until(() => server.attached() === n, 'every subscription attached');
    server.writes.length = 0;
    await server.publish('i1', 'one event');
    await until(() => client.nexts().length === n, `${n} next messages`);
    expect(server.writes).toHaveLength(1);
    expect(new Set(client.nexts().map((e) => e.id)).size).toBe(n);
    expect(client.nexts().every((e) => e.message === 'one event' && e.instance === 'i1')).toBe(true);
  });

  it('stops the subscription a client completes, and only that one', async () => {
    await using server = await startStatusWs();
    using client = await server.open();
    await client.init();
    client.subscribe('1');
    client.subscribe('2');
    await until(() => server.attached() === 2, 'both subscriptions attached');
    client.send({ id: '1', type: 'complete' });
    await until(() => server.released() === 1, 'the completed subscription released');
    await server.publish('i1', 'first');
    await server.publish('i2', 'second');
    await until(() => client.nexts().length === 2, 'both events on the subscription left');
    expect(client.nexts().map((e) => [e.id, e.message])).toEqual([
      ['2', 'first'],
      ['2', 'second'],
    ]);
    // the server sends no `complete` for an operation the client completed
    expect(client.messages.filter((m) => m.type === 'complete')).toEqual([]);
    expect(server.released()).toBe(1);
  });

  describe('close codes pass through', () => {
    it("graphql-ws's: an invalid message, a duplicate id, a subscribe before connection_init", async () => {
      await using server = await startStatusWs();
      using invalid = await server.open();
      invalid.ws.send('not json');
      await until(() => invalid.closed() !== null, 'the close');
      expect(invalid.closed()).toEqual({ code: 4400, reason: 'Invalid message received' });

      using duplicate = await server.open();
      await duplicate.init();
      duplicate.subscribe('1');
      duplicate.subscribe('1');
      await until(() => duplicate.closed() !== null, 'the close');
      expect(duplicate.closed()).toEqual({ code: 4409, reason: 'Subscriber for 1 already exists' });

      using early = await server.open();
      early.subscribe('1');
      await until(() => early.closed() !== null, 'the close');
      expect(early.closed()).toEqual({ code: 4401, reason: 'Unauthorized' });
      // each ended subscription gave its place back
      await until(() => server.released() === server.attached(), 'the subscriptions released');
    });

    it("the gateway's, after the messages queued before it", async () => {
      await using server = await startStatusWs();
      using client = await server.open();
      await client.init();
      const [connection] = server.connections;
      // queued in this turn, closed in this turn: the `next` still goes first
      connection.nextWriter('x').write(Buffer.from('{"data":null}'));
      server.served.close(1001, 'gateway shutting down');
      await until(() => client.closed() !== null, 'the close');
      expect(client.closed()).toEqual({ code: 1001, reason: 'gateway shutting down' });
      expect(client.messages.at(-1)).toEqual({ id: 'x', type: 'next', payload: { data: null } });
    });
  });

  it('frames messages of every length form (7-, 16- and 64-bit lengths)', async () => {
    await using server = await startStatusWs();
    using client = await server.open();
    await client.init();
    client.subscribe('1');
    await until(() => server.attached() === 1, 'the subscription attached');
    const sizes = [10, 200, 70_000];
    for (const [i, size] of sizes.entries()) await server.publish(`i${i}`, 'x'.repeat(size));
    await until(() => client.nexts().length === sizes.length, 'every event');
    expect(client.nexts().map((e) => e.message.length)).toEqual(sizes);
  });

  it('a client that stops reading pauses its subscription, which conflates, instead of the gateway buffering', async () => {
    await using server = await startStatusWs();
    using client = await server.open();
    await client.init();
    client.subscribe('1');
    await until(() => server.attached() === 1, 'the subscription attached');
    const [tcp] = server.sockets;
    client.ws.pause(); // the kernel's buffers fill, then the server's socket asks to drain
    const pad = 'x'.repeat(8192);
    const instances = 10,
      perInstance = 200;
    let buffered = 0;
    for (let c = 1; c < perInstance; c++) {
      for (let i = 0; i < instances; i++) await server.publish(`i${i}`, pad);
      buffered = Math.max(buffered, tcp.writableLength);
    }
    for (let i = 0; i < instances; i++) await server.publish(`i${i}`, 'last');
    // ~16 MB published; what waits in the process is at most about one batch of frames
    expect(buffered).toBeLessThan(2 * 1024 * 1024);
    client.ws.resume();
    await until(
      () =>
        new Set(
          client
            .nexts()
            .filter((e) => e.message === 'last')
            .map((e) => e.instance),
        ).size === instances,
      'the last event of every instance',
      30_000,
    );
    const got = client.nexts();
    expect(got.length).toBeLessThan(instances * perInstance);
    expect(got.some((e) => e.lag && e.lag.skippedEvents > 0)).toBe(true);
  }, 60_000);
});

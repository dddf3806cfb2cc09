import { fail } from '@nvcf/errors';
import { startPrivateNats, type PrivateNats } from '../../../test/services/nats-private.js';
import { connectBus, untilAvailable, StartupTimeout } from '../src/index.js';

const describeReal = process.env.NVCF_TEST_BACKENDS === 'memory' ? describe.skip : describe;

describe('untilAvailable: a start that waits for its backends', () => {
  it('retries what is unavailable right now until it answers', async () => {
    let calls = 0;
    const value = await untilAvailable(
      'the store',
      async () => {
        if (++calls < 3) throw fail('UNAVAILABLE', 'the database is unavailable right now');
        return 'session';
      },
      Date.now() + 10_000,
    );
    expect(value).toBe('session');
    expect(calls).toBe(3);
  });

  it('fails at once on anything else', async () => {
    let calls = 0;
    const refused = untilAvailable(
      'the store',
      async () => {
        calls++;
        throw new TypeError('bad contact point');
      },
      Date.now() + 10_000,
    );
    await expect(refused).rejects.toThrow('bad contact point');
    expect(calls).toBe(1);
  });

  it('gives up after its deadline, naming what it waited for and why', async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9042'), { code: 'ECONNREFUSED' });
    const late = untilAvailable(
      'Cassandra at 127.0.0.1:9042',
      async () => {
        throw cause;
      },
      Date.now() + 800,
    );
    await expect(late).rejects.toBeInstanceOf(StartupTimeout);
    await expect(late).rejects.toMatchObject({
      message: 'Cassandra at 127.0.0.1:9042 did not become available within 1 s',
      cause,
    });
  });
});

describeReal('connectBus on a real NATS server', () => {
  let nats: PrivateNats | undefined;
  afterEach(async () => {
    await nats?.[Symbol.asyncDispose]();
    nats = undefined;
  });

  it('waits for a server that is not up yet, then ensures the streams', async () => {
    nats = await startPrivateNats();
    await nats.stop(); // its port is known, nothing listens there yet
    const later = new Promise<void>((r) => setTimeout(r, 1500)).then(() => nats!.start());
    const started = Date.now();
    const bus = await connectBus({ natsUrl: nats.url, streamReplicas: 1 }, 'startup-test', Date.now() + 30_000);
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect((await bus.streamInfo('NvcaStatusStream')).messages).toBe(0);
      expect((await bus.streamInfo('DeadLetterStream')).messages).toBe(0);
    } finally {
      await bus.dispose();
      await later;
    }
  }, 60_000);

  it('refuses a server without JetStream at once, saying so', async () => {
    nats = await startPrivateNats({ jetstream: false });
    const started = Date.now();
    const refused = connectBus({ natsUrl: nats.url, streamReplicas: 1 }, 'startup-test', Date.now() + 30_000);
    await expect(refused).rejects.toMatchObject({
      name: 'BusConnectError',
      message: `NATS at ${nats.url} does not offer JetStream (start it with JetStream enabled)`,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);
});

import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { waitUntil } from '@nvcf/testing';
import { ConsumeLoop } from '../src/nats-loop.js';

/** An iterator of `messages` that ends when closed, as nats.js' consume() gives one. */
function iteratorOf(messages: string[]): ConsumerMessages {
  let close!: () => void;
  const closed = new Promise<void>((r) => (close = r));
  return {
    async *[Symbol.asyncIterator]() {
      for (const m of messages) yield { subject: m } as unknown as JsMsg;
      await closed;
    },
    // no status notifications: the iterator ends when it is closed
    status: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => closed.then(() => ({ done: true, value: undefined })) }),
    }),
    close: async () => close(),
  } as unknown as ConsumerMessages;
}

const timeout = () => Object.assign(new Error('timeout'), { name: 'TimeoutError' });

describe('ConsumeLoop.start', () => {
  it('an outage at the first open does not fail the start: the loop opens it in the background', async () => {
    let opens = 0;
    const seen: string[] = [];
    const loop = new ConsumeLoop({
      what: 'consumer test',
      open: async () => {
        if (++opens < 3) throw timeout();
        return iteratorOf(['a', 'b']);
      },
      onMessage: (m) => void seen.push(m.subject),
      closed: () => false,
    });
    await loop.start();
    await waitUntil(() => seen.length === 2, { what: 'the messages once the open succeeded' });
    expect(opens).toBe(3);
    expect(seen).toEqual(['a', 'b']);
    await loop.stop();
  });

  it('a failure of its own at the first open (no such stream) fails the start', async () => {
    const loop = new ConsumeLoop({
      what: 'consumer test',
      open: async () => {
        throw Object.assign(new Error('stream not found'), { name: 'JetStreamApiError' });
      },
      onMessage: () => {},
      closed: () => false,
    });
    await expect(loop.start()).rejects.toThrow('stream not found');
  });
});

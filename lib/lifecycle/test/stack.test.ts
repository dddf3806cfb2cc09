import { DisposalStack } from '../src/index.js';

describe('DisposalStack', () => {
  it('disposes in reverse order and keeps going after a failure', async () => {
    const order: string[] = [];
    const s = new DisposalStack();
    s.defer(() => {
      order.push('first');
    });
    s.defer(() => {
      order.push('second');
      throw new Error('boom');
    });
    s.use({
      dispose: () => {
        order.push('third');
      },
    });
    await expect(s.disposeAsync()).rejects.toThrow('boom');
    expect(order).toEqual(['third', 'second', 'first']);
  });
});

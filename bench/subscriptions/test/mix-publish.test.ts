import { eventOf, publishSpread } from '../mix/publish.js';

describe("the realistic mix's publisher", () => {
  it('numbers each tenant its own sequence, the tenants taking turns', () => {
    expect([0, 1, 2, 3, 4, 5].map((g) => eventOf(g, 3))).toEqual([
      { tenant: 0, n: 0 },
      { tenant: 1, n: 0 },
      { tenant: 2, n: 0 },
      { tenant: 0, n: 1 },
      { tenant: 1, n: 1 },
      { tenant: 2, n: 1 },
    ]);
  });

  it('publishes every event of every tenant once, and counts only what the bus took', async () => {
    const sent: string[] = [],
      acked: string[] = [];
    const issued = new Uint32Array(3);
    const errors: unknown[] = [];
    const { events } = await publishSpread({
      tenants: 3,
      perTenant: 4,
      rate: 400,
      publish: async (t, n) => {
        sent.push(`${t}:${n}`);
        if (t === 2 && n === 1) throw new Error('no ack');
      },
      acked: (t, n) => acked.push(`${t}:${n}`),
      issued,
      onError: (err) => errors.push(err),
    });
    expect(sent.sort()).toEqual(['0:0', '0:1', '0:2', '0:3', '1:0', '1:1', '1:2', '1:3', '2:0', '2:1', '2:2', '2:3']);
    expect(events).toBe(11);
    expect(acked).not.toContain('2:1');
    expect(errors).toHaveLength(1);
    expect([...issued]).toEqual([4, 4, 4]);
  });
});

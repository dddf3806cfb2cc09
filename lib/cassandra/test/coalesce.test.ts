import type { Client } from 'cassandra-driver';
import { CassandraUnavailable, coalescedWriter } from '../src/index.js';

type Sent = { kind: 'execute' | 'batch'; rows: unknown[][] };

/** A driver stand-in that records what it is sent and answers when told to. */
function fakeClient(fail: (rows: unknown[][], kind: Sent['kind']) => Error | null = () => null) {
  const sent: Sent[] = [];
  const held: (() => void)[] = [];
  let hold = false;
  const answer = (kind: Sent['kind'], rows: unknown[][]) => {
    sent.push({ kind, rows });
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        const err = fail(rows, kind);
        if (err) reject(err);
        else resolve();
      };
      if (hold) held.push(done);
      else setImmediate(done);
    });
  };
  const client = {
    execute: (_q: string, params: unknown[]) => answer('execute', [params]),
    batch: (qs: { params: unknown[] }[]) =>
      answer(
        'batch',
        qs.map((q) => q.params),
      ),
  } as unknown as Pick<Client, 'execute' | 'batch'>;
  return {
    client,
    sent,
    hold: (on: boolean) => (hold = on),
    release: () => held.splice(0).forEach((f) => f()),
  };
}

const Q = 'UPDATE ks.t USING TIMESTAMP ? SET v = ? WHERE id = ?';
const turn = () => new Promise((r) => setImmediate(r));

describe('coalescedWriter', () => {
  it('sends the writes of one turn as one unlogged batch, and a lone write as itself', async () => {
    const f = fakeClient();
    const w = coalescedWriter(f.client);
    await Promise.all([1, 2, 3].map((i) => w.write(Q, [i, 'v', `id-${i}`])));
    await w.write(Q, [4, 'v', 'id-4']);
    expect(f.sent).toEqual([
      { kind: 'batch', rows: [1, 2, 3].map((i) => [i, 'v', `id-${i}`]) },
      { kind: 'execute', rows: [[4, 'v', 'id-4']] },
    ]);
  });

  it('splits by statement count and by bytes', async () => {
    const f = fakeClient();
    const w = coalescedWriter(f.client, { maxStatements: 2, maxBytes: 1000 });
    await Promise.all([1, 2, 3, 4, 5].map((i) => w.write(Q, [i])));
    expect(f.sent.map((s) => s.rows.length)).toEqual([2, 2, 1]);
    f.sent.length = 0;
    const big = 'x'.repeat(600);
    await Promise.all([1, 2, 3].map((i) => w.write(Q, [big, i])));
    expect(f.sent.map((s) => s.rows.length)).toEqual([1, 1, 1]);
  });

  it('lets writes pile up into a bigger batch while as many batches as allowed are unanswered', async () => {
    const f = fakeClient();
    const w = coalescedWriter(f.client, { maxInFlight: 1 });
    f.hold(true);
    const first = w.write(Q, [0]);
    await turn();
    const rest = [1, 2, 3, 4].map((i) => w.write(Q, [i]));
    await turn();
    expect(f.sent).toHaveLength(1);
    f.hold(false);
    f.release();
    await Promise.all([first, ...rest]);
    expect(f.sent.map((s) => s.rows)).toEqual([[[0]], [[1], [2], [3], [4]]]);
  });

  it('retries a failed batch row by row, so one bad row fails alone', async () => {
    const bad = new Error('Invalid STRING constant');
    const f = fakeClient((rows, kind) =>
      rows.some((r) => r[0] === 2) && (kind === 'batch' || rows.length === 1) ? bad : null,
    );
    const w = coalescedWriter(f.client);
    const results = await Promise.allSettled([1, 2, 3].map((i) => w.write(Q, [i])));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBe(bad);
    expect(f.sent.map((s) => s.kind)).toEqual(['batch', 'execute', 'execute', 'execute']);
  });

  it('fails every row of a batch on an outage without retrying them one by one', async () => {
    const down = new CassandraUnavailable('the database is unavailable right now; retry in a few seconds');
    const f = fakeClient(() => down);
    const w = coalescedWriter(f.client);
    const results = await Promise.allSettled([1, 2, 3].map((i) => w.write(Q, [i])));
    expect(results.every((r) => r.status === 'rejected' && r.reason === down)).toBe(true);
    expect(f.sent).toHaveLength(1);
  });
});

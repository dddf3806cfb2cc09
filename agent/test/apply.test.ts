/** The agent's applier: retries what may pass, reports what will not, and gives up only on the agent's stop. */
import { MissingCrds, PermanentFailure, TemporaryFailure, type ClusterDriver } from '../src/index.js';
import { Applier } from '../src/apply.js';
import { desiredInstance } from './fixtures.js';

const d = desiredInstance('c1', 'i1', 'r1', '2024-01-01T00:00:00.000Z');
const fast = { initialMs: 1, maxMs: 2, factor: 2 };

function applier(failures: Error[], abort = new AbortController()) {
  const lines: string[] = [];
  let attempts = 0;
  let missing = 0;
  const driver = {
    clusterId: 'c1',
    apply: async () => {
      attempts++;
      const f = failures.shift();
      if (f) throw f;
    },
  } as unknown as ClusterDriver;
  const a = new Applier({
    driver,
    backoff: fast,
    signal: abort.signal,
    log: (l) => lines.push(l),
    onMissingCrds: async () => {
      missing++;
    },
  });
  return { a, lines, attempts: () => attempts, missing: () => missing };
}

describe('Applier', () => {
  it('retries temporary failures until ready, logging each', async () => {
    const t = applier([new TemporaryFailure('not ready'), new TemporaryFailure('not ready')]);
    await expect(t.a.untilReady(d)).resolves.toEqual({ ok: true });
    expect(t.attempts()).toBe(3);
    expect(t.lines).toHaveLength(2);
    expect(t.lines[0]).toMatch(/^apply i1@r1 failed \(attempt 1\), retrying in \d+ ms: not ready$/);
  });

  it('ends at a permanent failure with its reason', async () => {
    const t = applier([new PermanentFailure('values rejected')]);
    await expect(t.a.untilReady(d)).resolves.toEqual({ ok: false, reason: 'values rejected' });
    expect(t.attempts()).toBe(1);
  });

  it('reports operator support before failing on a missing CRD', async () => {
    const t = applier([new MissingCrds('no CRD', ['x.example.com'], ['x'])]);
    await expect(t.a.untilReady(d)).resolves.toEqual({ ok: false, reason: 'no CRD' });
    expect(t.missing()).toBe(1);
  });

  it('throws once the agent stops, even mid-backoff', async () => {
    const abort = new AbortController();
    const t = applier(
      Array.from({ length: 100 }, () => new TemporaryFailure('not ready')),
      abort,
    );
    const out = t.a.untilReady(d);
    setTimeout(() => abort.abort(new Error('agent stopping')), 5);
    await expect(out).rejects.toThrow();
  });
});

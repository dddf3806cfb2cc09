import type { StatusEvent } from '@nvcf/client';
import { RolloutModel, type SpecSnapshot } from '../src/rollout-model.js';
import { failureReport, frame, resultLine, transitionLine } from '../src/rollout-render.js';
import { createColors } from '../src/output.js';

const plain = createColors(false);
const revision = (
  over: Partial<NonNullable<SpecSnapshot['latestRevision']>> = {},
): NonNullable<SpecSnapshot['latestRevision']> => ({
  id: 'rev-2',
  status: 'ROLLING_OUT',
  createdAt: '2026-11-30T19:00:00.000Z',
  appliedAt: null,
  deadline: '2026-11-30T19:10:00.000Z',
  failureReason: null,
  supersedes: null,
  progress: {
    total: 2,
    applied: 0,
    updating: 0,
    failed: 0,
    pending: 2,
    startedAt: '2026-11-30T19:00:00.000Z',
    deadline: '2026-11-30T19:10:00.000Z',
  },
  ...over,
});
const instance = (
  id: string,
  cluster: string,
  state: 'ACTIVE' | 'UPDATING',
  revisionId: string,
  targetRevisionId: string | null = null,
) =>
  ({
    id,
    state,
    revisionId,
    targetRevisionId,
    updatedAt: '2026-11-30T19:00:00.000Z',
    cluster: { id: cluster, name: cluster },
  }) as const;
const spec = (
  rev = revision(),
  instances = [instance('i-1', 'cluster-a', 'ACTIVE', 'rev-1'), instance('i-2', 'cluster-b', 'ACTIVE', 'rev-1')],
): SpecSnapshot => ({
  id: 'spec-1',
  gpu: 'L40S',
  instanceType: 'gl40s',
  deployment: { functionVersion: { id: 'v', function: { id: 'f', name: 'echo' } } },
  latestRevision: rev,
  lastAppliedRevision: { id: 'rev-1' },
  instances: [...instances],
});
const event = (
  id: string,
  cluster: string,
  previousState: 'ACTIVE' | 'UPDATING',
  state: 'ACTIVE' | 'UPDATING',
  revisionId: string,
  message: string | null = null,
): StatusEvent => ({
  cursor: `c-${id}-${state}-${revisionId}`,
  state,
  previousState,
  revisionId,
  targetRevisionId: state === 'UPDATING' ? 'rev-2' : null,
  at: '2026-11-30T19:00:01.123Z',
  message,
  kind: 'TRANSITION',
  lag: null,
  instance: {
    id,
    state,
    revisionId,
    targetRevisionId: state === 'UPDATING' ? 'rev-2' : null,
    cluster: { id: cluster, name: cluster },
    gpuSpecification: { id: 'spec-1' },
  },
});

describe('rollout model', () => {
  it('follows instances through the stream and reports each transition as one line', () => {
    const m = new RolloutModel('spec-1');
    m.applySnapshot(spec());
    const t = m.applyEvent(event('i-1', 'cluster-a', 'ACTIVE', 'UPDATING', 'rev-1'))!;
    expect(transitionLine(t)).toBe('2026-11-30T19:00:01Z i-1 cluster-a UPDATING rev-2 (from rev-1)\n');
    expect(transitionLine(m.applyEvent(event('i-1', 'cluster-a', 'UPDATING', 'ACTIVE', 'rev-2'))!)).toBe(
      '2026-11-30T19:00:01Z i-1 cluster-a ACTIVE rev-2\n',
    );
    // a refetch from a store that lags the stream does not move an instance back
    m.applySnapshot(spec(revision({ progress: { ...revision().progress, applied: 1, pending: 1 } })));
    expect(m.instances.get('i-1')).toMatchObject({ state: 'ACTIVE', revisionId: 'rev-2' });
    expect(m.counts()).toMatchObject({ applied: 1, total: 2 });
  });

  it('marks an instance whose update failed for good, with its message', () => {
    const m = new RolloutModel('spec-1');
    m.applySnapshot(spec());
    m.applyEvent(event('i-2', 'cluster-b', 'ACTIVE', 'UPDATING', 'rev-1'));
    m.applyEvent(
      event('i-2', 'cluster-b', 'UPDATING', 'ACTIVE', 'rev-1', 'update to revision rev-2 failed: values rejected'),
    );
    expect(m.failures().map((i) => [i.id, i.message])).toEqual([
      ['i-2', 'update to revision rev-2 failed: values rejected'],
    ]);
    m.applySnapshot(
      spec(
        revision({
          status: 'FAILED',
          failureReason: 'instance i-2: update to revision rev-2 failed: values rejected',
          progress: { ...revision().progress, failed: 1, pending: 1 },
        }),
      ),
    );
    expect(m.outcome(Date.parse('2026-11-30T19:00:02Z'), 5000)).toEqual({
      result: 'FAILED',
      reason: 'instance i-2: update to revision rev-2 failed: values rejected',
    });
    expect(resultLine(m, { result: 'FAILED', reason: 'x' }, plain)).toBe(
      'revision rev-2 FAILED (0/2 applied, 1 failed)\n',
    );
  });

  it('keeps a terminated instance as a TERMINATED row, which a lagging refetch does not revive', () => {
    const m = new RolloutModel('spec-1');
    m.applySnapshot(spec());
    const gone: StatusEvent = {
      ...event('i-2', 'cluster-b', 'ACTIVE', 'ACTIVE', 'rev-1'),
      cursor: 'c-i-2-TERMINATED',
      state: 'TERMINATED',
    };
    expect(transitionLine(m.applyEvent(gone)!)).toBe('2026-11-30T19:00:01Z i-2 cluster-b TERMINATED rev-1\n');
    // the same event again (a resumed stream): nothing to report
    expect(m.applyEvent(gone)).toBeNull();
    m.applySnapshot(spec());
    expect(m.sorted().map((i) => [i.id, i.state])).toEqual([
      ['i-1', 'ACTIVE'],
      ['i-2', 'TERMINATED'],
    ]);
    expect(failureReport(m, { result: 'DEADLINE', reason: 'late' }, plain)).not.toContain('i-2');
  });

  it('ends at APPLIED, or on its own once the deadline passed without a final status', () => {
    const m = new RolloutModel('spec-1');
    m.applySnapshot(spec());
    expect(m.outcome(Date.parse('2026-11-30T19:05:00Z'), 5000)).toBeNull();
    expect(m.outcome(Date.parse('2026-11-30T19:10:06Z'), 5000)).toEqual({
      result: 'DEADLINE',
      reason: 'deadline 2026-11-30T19:10:00Z passed with 0 of 2 instances applied',
    });
    m.applySnapshot(spec(revision({ status: 'APPLIED', appliedAt: '2026-11-30T19:00:05.000Z' })));
    expect(m.outcome(Date.parse('2026-11-30T19:20:00Z'), 5000)).toEqual({ result: 'APPLIED' });
  });

  it('follows a newer revision that supersedes the one it watched', () => {
    const m = new RolloutModel('spec-1');
    m.applySnapshot(spec());
    const changes = m.applySnapshot(spec(revision({ id: 'rev-3', supersedes: 'rev-2' })));
    expect(changes).toEqual([
      expect.objectContaining({
        kind: 'superseded',
        previous: expect.objectContaining({ id: 'rev-2' }),
        revision: expect.objectContaining({ id: 'rev-3' }),
      }),
    ]);
    expect(m.revision?.id).toBe('rev-3');
  });

  it('draws a frame that fits the terminal: header, bar, table, without colour when asked', () => {
    const m = new RolloutModel('spec-1');
    const many = Array.from({ length: 40 }, (_, i) =>
      instance(
        `i-${String(i).padStart(2, '0')}`,
        'cluster-a',
        i === 7 ? 'UPDATING' : 'ACTIVE',
        'rev-1',
        i === 7 ? 'rev-2' : null,
      ),
    );
    m.applySnapshot(
      spec(revision({ progress: { ...revision().progress, total: 40, updating: 1, pending: 39 } }), many),
    );
    const text = frame(m, { colors: plain, width: 100, height: 20, now: Date.parse('2026-11-30T19:00:28Z') });
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(19);
    expect(text).not.toContain('\u001b[');
    expect(lines[2]).toMatch(/^░+ 0\/40 applied \| 1 updating \| 0 failed \| deadline in 09m32s$/);
    expect(text).toContain('INSTANCE');
    expect(text).toMatch(/i-07\s+cluster-a\s+UPDATING\s+rev-1 → rev-2/); // the moving one is kept when rows run out
    expect(text).toMatch(/… and \d+ more/);
  });
});

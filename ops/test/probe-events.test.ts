import type { InstanceState } from '@nvcf/client';
import { eventTracker, parseDuration, renderTable, UsageError, type StatusEvent } from '../src/index.js';

const ev = (
  seq: number,
  id: string,
  previousState: InstanceState | null,
  state: InstanceState,
  extra: Partial<StatusEvent> = {},
): StatusEvent => ({
  cursor: `v1.${seq.toString(36)}.sig${seq}`,
  instance: { id, cluster: { id: 'c-1' } },
  previousState,
  state,
  revisionId: 'rev-1',
  targetRevisionId: null,
  message: null,
  kind: 'TRANSITION',
  lag: null,
  ...extra,
});

describe('status events as a probe checks them', () => {
  it('accepts transitions that continue each instance where it was', () => {
    const t = eventTracker();
    const verdicts = [
      ev(1, 'a', 'ACTIVE', 'UPDATING'),
      ev(2, 'b', 'ACTIVE', 'UPDATING'),
      ev(5, 'a', 'UPDATING', 'ACTIVE'),
      ev(9, 'b', 'UPDATING', 'ACTIVE'),
    ].flatMap((e) => t.record(e));
    expect(verdicts.every((v) => v.kind === 'new')).toBe(true);
    expect(t.lastCursor).toBe(ev(9, 'b', null, 'ACTIVE').cursor);
  });

  it('calls the same cursor twice a duplicate, and does not move the resume position back', () => {
    const t = eventTracker();
    t.record(ev(1, 'a', 'ACTIVE', 'UPDATING'));
    t.record(ev(2, 'a', 'UPDATING', 'ACTIVE'));
    expect(t.record(ev(1, 'a', 'ACTIVE', 'UPDATING'))).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
    expect(t.lastCursor).toBe(ev(2, 'a', null, 'ACTIVE').cursor);
  });

  it('finds a gap by transition order, by an older position arriving late, and by conflation', () => {
    const t = eventTracker();
    t.record(ev(1, 'a', 'STARTING', 'ACTIVE'));
    expect(t.record(ev(4, 'a', 'UPDATING', 'ACTIVE'))).toEqual([
      expect.objectContaining({
        kind: 'gap',
        message: expect.stringContaining('last seen ACTIVE, next event is UPDATING → ACTIVE'),
      }),
    ]);
    expect(t.record(ev(3, 'b', null, 'STARTING'))).toEqual([
      expect.objectContaining({ kind: 'gap', message: expect.stringContaining('position 3 arrived after 4') }),
    ]);
    expect(t.record(ev(6, 'c', 'UPDATING', 'ACTIVE', { lag: { skippedEvents: 2, resumeAfter: 'v1.4.x' } }))).toEqual([
      expect.objectContaining({ kind: 'gap', message: expect.stringContaining('2 transition(s) conflated') }),
    ]);
  });

  it('does not let a late older event move where an instance stands: the next one is no gap', () => {
    const t = eventTracker();
    t.record(ev(1, 'a', 'STARTING', 'ACTIVE'));
    t.record(ev(5, 'a', 'ACTIVE', 'UPDATING'));
    expect(t.record(ev(3, 'a', 'STARTING', 'ACTIVE'))).toEqual([
      expect.objectContaining({ kind: 'gap', message: expect.stringContaining('position 3 arrived after 5') }),
      expect.objectContaining({ kind: 'gap', message: expect.stringContaining('last seen UPDATING') }),
    ]);
    expect(t.record(ev(6, 'a', 'UPDATING', 'ACTIVE'))).toEqual([{ kind: 'new' }]);
  });

  it('takes a snapshot as the state to continue from', () => {
    const t = eventTracker();
    expect(t.record(ev(3, 'a', null, 'ACTIVE', { kind: 'SNAPSHOT' }))[0].kind).toBe('new');
    expect(t.record(ev(4, 'a', 'ACTIVE', 'UPDATING'))[0].kind).toBe('new');
  });
});

describe('command-line helpers', () => {
  it('parses durations and names the flag of a bad one', () => {
    expect(parseDuration('50ms', '--interval')).toBe(50);
    expect(parseDuration('60s', '--duration')).toBe(60_000);
    expect(parseDuration('2m', '--duration')).toBe(120_000);
    expect(parseDuration('250', '--interval')).toBe(250);
    expect(() => parseDuration('soon', '--duration')).toThrow(UsageError);
    expect(() => parseDuration('5 days', '--duration')).toThrow(
      "--duration must be a duration like 50ms, 60s, 2m or 1h (got '5 days')",
    );
  });

  it('renders a table whose columns line up', () => {
    expect(
      renderTable(
        ['check', 'status'],
        [
          ['nats', 'OK'],
          ['ledger nvcf_api', 'FAIL'],
        ],
      ).split('\n'),
    ).toEqual(['check            status', '---------------  ------', 'nats             OK', 'ledger nvcf_api  FAIL']);
  });
});

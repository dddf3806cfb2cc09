import {
  applyListedInstances,
  applyStatusEvent,
  cursorSequence,
  type FoldableStatusEvent,
  type InstanceState,
  type ListedInstance,
  type RolloutInstance,
} from '../src/index.js';

type Cluster = { id: string; name: string };
type Event = FoldableStatusEvent<Cluster>;
const cluster = { id: 'c-1', name: 'cluster-a' };

/** An event at stream position `seq` (its cursor carries it, as the gateway's do). */
const ev = (
  seq: number,
  previousState: InstanceState | null,
  state: InstanceState,
  over: Partial<Event> = {},
): Event => ({
  cursor: `v1.${seq.toString(36)}.sig`,
  kind: 'TRANSITION',
  state,
  previousState,
  revisionId: state === 'STARTING' || state === 'FAILED' ? null : 'rev-1',
  targetRevisionId: null,
  message: null,
  instance: { id: 'i-1', cluster },
  ...over,
});
const updating = (seq: number, over: Partial<Event> = {}) =>
  ev(seq, 'ACTIVE', 'UPDATING', { targetRevisionId: 'rev-2', ...over });
const applied = (seq: number) => ev(seq, 'UPDATING', 'ACTIVE', { revisionId: 'rev-2' });

const fold = (events: Event[], latest: string | null = 'rev-2') =>
  events.reduce<RolloutInstance<Cluster> | undefined>((i, e) => applyStatusEvent(i, e, latest), undefined);

describe('the rollout fold', () => {
  const table: [string, Event[], Partial<RolloutInstance<Cluster>>][] = [
    [
      'follows transitions in stream order',
      [ev(1, null, 'STARTING'), ev(2, 'STARTING', 'ACTIVE'), updating(3)],
      {
        state: 'UPDATING',
        revisionId: 'rev-1',
        targetRevisionId: 'rev-2',
        seq: 3,
      },
    ],
    [
      'ignores an older position arriving late (out of order)',
      [updating(3), applied(7), updating(3)],
      {
        state: 'ACTIVE',
        revisionId: 'rev-2',
        seq: 7,
      },
    ],
    ['takes a duplicate once', [updating(3), applied(4), applied(4)], { state: 'ACTIVE', revisionId: 'rev-2', seq: 4 }],
    [
      'takes a resumed watch replaying what it had, then goes on',
      [updating(3), applied(4), updating(3), applied(4), ev(9, 'ACTIVE', 'TERMINATED', { revisionId: 'rev-2' })],
      { state: 'TERMINATED', seq: 9 },
    ],
    [
      'takes a snapshot item of the last transition as that transition',
      [applied(4), { ...applied(4), kind: 'SNAPSHOT', previousState: null }],
      { state: 'ACTIVE', revisionId: 'rev-2', seq: 4 },
    ],
    [
      'keeps a TERMINATED instance, and an older event does not bring it back',
      [updating(3), ev(5, 'UPDATING', 'TERMINATED'), applied(4)],
      { state: 'TERMINATED', seq: 5 },
    ],
    [
      'fills in the target an older agent leaves out: the latest revision',
      [updating(3, { targetRevisionId: null })],
      {
        targetRevisionId: 'rev-2',
      },
    ],
    [
      'marks an update that failed for good, and keeps its message until the next update',
      [
        updating(3),
        ev(4, 'UPDATING', 'ACTIVE', { message: 'update to revision rev-2 failed: values rejected' }),
        ev(6, 'ACTIVE', 'ACTIVE'),
      ],
      {
        state: 'ACTIVE',
        revisionId: 'rev-1',
        targetRevisionId: null,
        failedRevisionId: 'rev-2',
        message: 'update to revision rev-2 failed: values rejected',
      },
    ],
    [
      'clears the failure and the message when the next update starts',
      [updating(3), ev(4, 'UPDATING', 'ACTIVE', { message: 'failed' }), updating(8, { targetRevisionId: 'rev-3' })],
      { state: 'UPDATING', targetRevisionId: 'rev-3', failedRevisionId: null, message: null },
    ],
    [
      'takes events whose cursor has no position in arrival order',
      [updating(3), { ...applied(0), cursor: 'opaque-a' }, { ...updating(0), cursor: 'opaque-b' }],
      { state: 'UPDATING', cursor: 'opaque-b', seq: 3 },
    ],
  ];

  it.each(table)('%s', (_name, events, expected) => {
    expect(fold(events)).toMatchObject(expected);
  });

  it('returns the same instance for an event that is not news, so a view can skip it', () => {
    const i = fold([updating(3), applied(4)])!;
    expect(applyStatusEvent(i, applied(4))).toBe(i);
    expect(applyStatusEvent(i, updating(3))).toBe(i);
    expect(applyStatusEvent(i, ev(5, 'ACTIVE', 'UPDATING'))).not.toBe(i);
  });

  it('reads the stream position out of a cursor, and nothing out of another shape', () => {
    expect(cursorSequence('v1.2s.AbC-_x')).toBe(100);
    expect(cursorSequence('v2.2s.x')).toBeUndefined();
    expect(cursorSequence('garbage')).toBeUndefined();
  });
});

describe('what a query lists', () => {
  const listed = (id: string, state: InstanceState, over: Partial<ListedInstance<Cluster>> = {}) => ({
    id,
    state,
    revisionId: 'rev-1',
    targetRevisionId: null,
    cluster,
    ...over,
  });

  it('seeds instances the stream has not reported, and drops them when no longer listed', () => {
    const a = applyListedInstances(new Map(), [listed('i-1', 'ACTIVE'), listed('i-2', 'UPDATING')], 'rev-2');
    expect(a.get('i-1')).toMatchObject({ state: 'ACTIVE', cursor: null });
    expect(a.get('i-2')).toMatchObject({ state: 'UPDATING', targetRevisionId: 'rev-2' });
    const b = applyListedInstances(a, [listed('i-1', 'UPDATING', { targetRevisionId: 'rev-2' })]);
    expect([...b.keys()]).toEqual(['i-1']);
    expect(b.get('i-1')).toMatchObject({ state: 'UPDATING' });
  });

  it('does not move an instance the stream reported, nor drop it, TERMINATED included', () => {
    const seeded = applyListedInstances(new Map(), [listed('i-1', 'ACTIVE')]);
    const moved = new Map(seeded).set('i-1', applyStatusEvent(seeded.get('i-1'), ev(5, 'ACTIVE', 'TERMINATED')));
    // a query from a store that lags the stream still lists it as ACTIVE, then not at all
    expect(applyListedInstances(moved, [listed('i-1', 'ACTIVE')]).get('i-1')).toMatchObject({ state: 'TERMINATED' });
    expect(applyListedInstances(moved, []).get('i-1')).toMatchObject({ state: 'TERMINATED' });
  });

  it('seeds a FAILED instance with the revision that failed on it', () => {
    const m = applyListedInstances(new Map(), [
      listed('i-1', 'FAILED', { revisionId: null, targetRevisionId: 'rev-2' }),
    ]);
    expect(m.get('i-1')).toMatchObject({ failedRevisionId: 'rev-2', targetRevisionId: 'rev-2' });
  });
});

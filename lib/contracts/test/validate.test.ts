import { PoisonMessage } from '@nvcf/bus';
import { statusEventOf, type StatusEvent } from '../src/index.js';

const event: StatusEvent = {
  ncaId: 'nca-a',
  functionId: 'fn-1',
  versionId: 'v-1',
  gpuSpecificationId: 'spec-1',
  clusterId: 'cluster-a',
  instanceId: 'i-1',
  state: 'UPDATING',
  previousState: 'ACTIVE',
  revisionId: 'r-1',
  targetRevisionId: 'r-2',
  at: '2026-12-02T00:00:00.000Z',
  clock: 1_764_633_600_000_000,
};

describe('statusEventOf: what the status readers may apply', () => {
  it('passes a status event as it is, optional fields absent or null', () => {
    expect(statusEventOf(event)).toBe(event);
    const { targetRevisionId: _t, ...older } = event;
    expect(statusEventOf({ ...older, previousState: null, revisionId: null })).toEqual({
      ...older,
      previousState: null,
      revisionId: null,
    });
  });

  it.each([
    ['a payload that is not an object', [1, 2], 'the payload is not an object'],
    ['null', null, 'the payload is not an object'],
    ['no instance', { ...event, instanceId: undefined }, 'instanceId must be a non-empty string (got nothing)'],
    ['an empty tenant', { ...event, ncaId: '' }, 'ncaId must be a non-empty string (got "")'],
    [
      'an unknown state',
      { ...event, state: 'RUNNING' },
      'state must be one of STARTING, ACTIVE, UPDATING, FAILED, TERMINATED',
    ],
    ['no clock', { ...event, clock: undefined }, 'clock must be a non-negative integer (got nothing)'],
    ['a clock as text', { ...event, clock: '17' }, 'clock must be a non-negative integer (got "17")'],
    ['a time that is not one', { ...event, at: 'yesterday' }, 'at must be an ISO-8601 time'],
    ['a revision that is not an id', { ...event, revisionId: 7 }, 'revisionId must be a string or null (got 7)'],
    ['a message that is not text', { ...event, message: { text: 'x' } }, 'message must be a string'],
    ['permanent as text', { ...event, permanent: 'yes' }, 'permanent must be a boolean'],
  ])('refuses %s as a poison message naming the field', (_what, data, why) => {
    let thrown: unknown;
    try {
      statusEventOf(data);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PoisonMessage);
    expect((thrown as Error).message).toContain(why);
  });
});

import { PhaseState, isClosing } from '../src/index.js';

describe('PhaseState', () => {
  it('starts, becomes ready, drains since a time, stops', () => {
    let clock = 1000;
    const p = new PhaseState(() => clock);
    expect(p.current).toEqual({ kind: 'starting' });
    expect(p.enter('ready')).toBe(true);
    expect(p.current).toEqual({ kind: 'ready' });
    clock = 2500;
    expect(p.enter('draining')).toBe(true);
    expect(p.current).toEqual({ kind: 'draining', since: 2500 });
    expect(p.enter('stopped')).toBe(true);
    expect(p.current).toEqual({ kind: 'stopped' });
  });

  it('only moves forward: a drain after a stop keeps it stopped, a second drain keeps the first time', () => {
    let clock = 1;
    const p = new PhaseState(() => clock);
    p.enter('draining');
    clock = 2;
    expect(p.enter('draining')).toBe(false);
    expect(p.enter('ready')).toBe(false);
    expect(p.current).toEqual({ kind: 'draining', since: 1 });
    p.enter('stopped');
    expect(p.enter('draining')).toBe(false);
    expect(p.current.kind).toBe('stopped');
  });

  it('may skip steps (a stop without a drain)', () => {
    const p = new PhaseState();
    p.enter('ready');
    expect(p.enter('stopped')).toBe(true);
    expect(p.current.kind).toBe('stopped');
  });

  it('is closing once draining or stopped', () => {
    expect(isClosing({ kind: 'starting' })).toBe(false);
    expect(isClosing({ kind: 'ready' })).toBe(false);
    expect(isClosing({ kind: 'draining', since: 0 })).toBe(true);
    expect(isClosing({ kind: 'stopped' })).toBe(true);
  });
});

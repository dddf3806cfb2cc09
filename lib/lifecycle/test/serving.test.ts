/** A subgraph's phase as GET /ready reads it, and its drain run once. */
import { ServingPhase } from '../src/serving.js';

describe('ServingPhase', () => {
  it('answers starting until listening, then ready while the service agrees', () => {
    let storeUp = false;
    const s = new ServingPhase(() => storeUp);
    expect(s.readiness()).toEqual({ status: 503, body: { status: 'starting' } });
    s.listening();
    expect(s.phase).toEqual({ kind: 'ready' });
    expect(s.readiness()).toEqual({ status: 503, body: { status: 'starting' } });
    storeUp = true;
    expect(s.readiness()).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('answers draining from the first moment of a drain, before the close has done anything', async () => {
    const s = new ServingPhase();
    s.listening();
    let release!: () => void;
    const drained = s.drain(() => new Promise<void>((r) => (release = r)));
    expect(s.phase.kind).toBe('draining');
    expect(s.readiness()).toEqual({ status: 503, body: { status: 'draining' } });
    release();
    await drained;
    expect(s.phase).toEqual({ kind: 'stopped' });
    expect(s.readiness()).toEqual({ status: 503, body: { status: 'draining' } });
  });

  it('closes once: a later drain or dispose waits for the first one', async () => {
    const s = new ServingPhase();
    s.listening();
    let closes = 0;
    const close = async () => {
      closes++;
    };
    const first = s.drain(close);
    const second = s.drain(close);
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await s.drain(close);
    expect(closes).toBe(1);
  });

  it('stays draining when the close fails, and the failure reaches every caller', async () => {
    const s = new ServingPhase();
    s.listening();
    const close = async () => {
      throw new Error('cannot stop');
    };
    await expect(s.drain(close)).rejects.toThrow('cannot stop');
    await expect(s.drain(close)).rejects.toThrow('cannot stop');
    expect(s.phase.kind).toBe('draining');
  });
});

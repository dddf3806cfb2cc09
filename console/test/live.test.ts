import { NvcfError } from '@nvcf/client';
import { connecting, connectionAfter, runWatch, type Connection } from '../web/console/live.js';

describe('connectionAfter: what a live view says about its watch', () => {
  const lost = new NvcfError('UNAVAILABLE', 'gateway draining');

  it('goes live when connected, says why and which attempt while reconnecting, and live again once resumed', () => {
    const steps = [
      { type: 'connected', after: null, attempt: 0 },
      { type: 'reconnecting', attempt: 1, delayMs: 10, error: lost },
      { type: 'reconnecting', attempt: 2, delayMs: 20, error: lost },
      { type: 'connected', after: 's3', attempt: 2 },
    ] as const;
    const seen: Connection[] = [];
    steps.reduce<Connection>((c, item) => {
      const next = connectionAfter(c, item);
      seen.push(next);
      return next;
    }, connecting);
    expect(seen).toEqual([
      { status: 'live' },
      { status: 'reconnecting', attempt: 1, reason: 'UNAVAILABLE: gateway draining' },
      { status: 'reconnecting', attempt: 2, reason: 'UNAVAILABLE: gateway draining' },
      { status: 'live' },
    ]);
  });

  it('is not changed by events, lags or an expired cursor (the same object back)', () => {
    const live: Connection = { status: 'live' };
    expect(connectionAfter(live, { type: 'event', event: {} })).toBe(live);
    expect(connectionAfter(live, { type: 'lag' })).toBe(live);
    expect(connectionAfter(live, { type: 'expired', error: new NvcfError('CURSOR_EXPIRED', 'old') })).toBe(live);
    expect(connectionAfter(live, { type: 'connected', after: null, attempt: 0 })).toBe(live);
  });
});

describe('runWatch: the loop every live view runs its watch in', () => {
  async function* items<T>(xs: T[], fail?: Error) {
    for (const x of xs) yield x;
    if (fail) throw fail;
  }
  const handlers = (signal = new AbortController().signal) => {
    const got = { items: [] as number[], ends: [] as (string | null)[], expired: [] as string[] };
    return {
      got,
      h: {
        signal,
        onItem: (i: number) => got.items.push(i),
        onEnd: (r: string | null) => got.ends.push(r),
        expired: (r: string) => got.expired.push(r),
      },
    };
  };

  it('hands on every item, then says it finished (null: nothing went wrong)', async () => {
    const { got, h } = handlers();
    await runWatch(items([1, 2]), h);
    expect(got).toEqual({ items: [1, 2], ends: [null], expired: [] });
  });

  it('ends with the failure as `CODE: message`', async () => {
    const { got, h } = handlers();
    await runWatch(items([1], new NvcfError('FORBIDDEN', 'not yours')), h);
    expect(got).toEqual({ items: [1], ends: ['FORBIDDEN: not yours'], expired: [] });
  });

  it('signs the page out on a refused token instead of ending the watch', async () => {
    const { got, h } = handlers();
    await runWatch(items([], new NvcfError('UNAUTHENTICATED', 'token expired')), h);
    expect(got).toEqual({ items: [], ends: [], expired: ['UNAUTHENTICATED: token expired'] });
  });

  it('says nothing once the view has closed', async () => {
    const stop = new AbortController();
    const { got, h } = handlers(stop.signal);
    async function* closing() {
      yield 1;
      stop.abort();
      yield 2;
      throw new Error('torn down');
    }
    await runWatch(closing(), h);
    expect(got).toEqual({ items: [1], ends: [], expired: [] });
  });
});

import { NvcfError } from './errors.js';
import { readResult } from './request.js';
import type { Frame, Transport, TransportContext } from './transport.js';
import { readSse } from './sse-parse.js';

/**
 * graphql-sse's distinct-connections mode, as the gateway serves it: POST with
 * `Accept: text/event-stream`, `next` events whose `id` is the resume cursor, then `complete`.
 * A response that ends without `complete` is a gateway going away: the caller resumes.
 */
export function sseTransport(ctx: TransportContext): Transport {
  return async function* open(body, signal): AsyncGenerator<Frame> {
    // outside the try: a token function that throws is the program's error, not an unreachable gateway
    const headers = { ...(await ctx.headers()), 'content-type': 'application/json', accept: 'text/event-stream' };
    let res: Response;
    try {
      res = await ctx.fetch(ctx.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (cause) {
      if (signal.aborted) return;
      throw NvcfError.unavailable(ctx.url, cause);
    }
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // refused before streaming: a plain GraphQL response with the error's code
      await readResult(res, ctx.url);
      throw new NvcfError(
        'UNAVAILABLE',
        `the gateway at ${ctx.url} answered HTTP ${res.status} without an event stream`,
        { status: res.status },
      );
    }
    if (!res.body) throw new NvcfError('UNAVAILABLE', `the gateway at ${ctx.url} sent an event stream without a body`);
    yield { kind: 'open' };
    try {
      for await (const e of readSse(res.body, signal)) {
        if (e.event === 'complete') return;
        if (e.event === 'next')
          yield { kind: 'result', ...(JSON.parse(e.data) as Omit<Extract<Frame, { kind: 'result' }>, 'kind'>) };
      }
    } catch (cause) {
      if (signal.aborted) return;
      throw NvcfError.unavailable(ctx.url, cause);
    }
    if (signal.aborted) return;
    throw new NvcfError(
      'UNAVAILABLE',
      `the event stream from ${ctx.url} ended without completing (the gateway replica went away)`,
    );
  };
}

import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { sendJson } from '@nvcf/http';
import type { StatusRun } from './execute.js';
import { serializedResult } from './serialize.js';

const KEEPALIVE_MS = 12_000;

async function write(res: ServerResponse, chunk: string) {
  // backpressure: a slow client stops the pull, and its feed conflates instead of this buffer growing;
  // a client that goes away while we wait ends the wait too (no drain ever comes then)
  if (!res.write(chunk) && !res.destroyed) {
    const done = new AbortController();
    await Promise.race([
      once(res, 'drain', { signal: done.signal }),
      once(res, 'close', { signal: done.signal }),
    ]).catch(() => undefined);
    done.abort();
  }
}

/**
 * graphql-sse "distinct connections" mode: one response per operation, `next` events with the
 * cursor in the SSE `id` (so a reconnecting client sends it back as Last-Event-ID), then
 * `complete`. A shutting-down gateway ends the response without `complete`: reconnect and resume.
 */
export async function serveSse(res: ServerResponse, run: StatusRun | ExecutionResult) {
  if (!('events' in run)) {
    // refused before streaming (validation, cursor): a plain GraphQL error response
    return sendJson(res, 400, run);
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  let closed = false;
  const stop = () => {
    closed = true;
    void run.events.return?.();
  };
  // the response's close is the one that fires when the client goes: the request's fired
  // long ago, once its body was read, and listening there leaked every SSE subscription
  res.on('close', stop);
  if (res.destroyed) stop();
  const keepalive = setInterval(() => {
    if (!closed) res.write(':\n\n');
  }, KEEPALIVE_MS);
  try {
    for (;;) {
      const r = await run.events.next();
      if (r.done || closed) break;
      await write(res, `event: next\nid: ${r.value.cursor}\ndata: ${serializedResult(r.value.result)}\n\n`);
    }
    if (!closed) await write(res, 'event: complete\ndata:\n\n');
  } catch (err) {
    const e = err as { message?: string; extensions?: Record<string, unknown> };
    // UNAVAILABLE: this replica is going away; ending without `complete` makes the client resume elsewhere
    if (!closed && e.extensions?.code && e.extensions.code !== 'UNAVAILABLE') {
      await write(
        res,
        `event: next\ndata: ${JSON.stringify({ errors: [{ message: e.message, extensions: e.extensions }] })}\n\n`,
      );
      // SSE has no error event: `complete` says the operation is over for good (graphql-sse clients
      // do not retry it), so the same selection is not sent again to a schema that refuses it
      if (e.extensions.code === 'SCHEMA_CHANGED' && !closed) await write(res, 'event: complete\ndata:\n\n');
    }
  } finally {
    clearInterval(keepalive);
    res.off('close', stop);
    res.end();
  }
}

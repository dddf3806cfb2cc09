import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { sendJson } from '@nvcf/subgraph-kit';
import type { StatusRun } from './execute.js';
import { serializedResult } from './serialize.js';

const KEEPALIVE_MS = 12_000;

async function write(res: ServerResponse, chunk: string) {
  // backpressure: a slow client stops the pull, and its feed conflates instead of this buffer growing
  if (!res.write(chunk)) await once(res, 'drain');
}

/**
 * graphql-sse "distinct connections" mode: one response per operation, `next` events with the
 * cursor in the SSE `id` (so a reconnecting client sends it back as Last-Event-ID), then
 * `complete`. A shutting-down gateway ends the response without `complete`: reconnect and resume.
 */
export async function serveSse(req: IncomingMessage, res: ServerResponse, run: StatusRun | ExecutionResult) {
  if (!('events' in run)) {
    // refused before streaming (validation, cursor): a plain GraphQL error response
    return sendJson(res, 400, run);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  let closed = false;
  const stop = () => { closed = true; void run.events.return?.(); };
  req.on('close', stop);
  const keepalive = setInterval(() => { if (!closed) res.write(':\n\n'); }, KEEPALIVE_MS);
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
    if (!closed && e.extensions?.code && e.extensions.code !== 'UNAVAILABLE') await write(res, `event: next\ndata: ${JSON.stringify({ errors: [{ message: e.message, extensions: e.extensions }] })}\n\n`);
  } finally {
    clearInterval(keepalive);
    req.off('close', stop);
    res.end();
  }
}

import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

export interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/**
 * A bare SSE reader (what a browser's EventSource does): exposes the `id` of every event and
 * sends Last-Event-ID when reconnecting, which graphql-sse's client hides.
 */
export function sseRaw<T, V>(
  url: string,
  token: string,
  doc: TypedDocumentNode<T, V>,
  variables: V,
  lastEventId?: string,
) {
  const ctl = new AbortController();
  const events: SseEvent[] = [];
  const state = { status: 0, ended: false, body: '', error: undefined as unknown };
  const done = (async () => {
    const res = await fetch(url, {
      method: 'POST',
      signal: ctl.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${token}`,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      body: JSON.stringify({ query: print(doc), variables }),
    });
    state.status = res.status;
    if (!res.headers.get('content-type')?.includes('text/event-stream')) {
      state.body = await res.text();
      state.ended = true;
      return;
    }
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e: SseEvent = { event: 'message', data: undefined };
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('data:')) {
            const d = line.slice(5).trim();
            e.data = d ? JSON.parse(d) : undefined;
          }
        }
        if (block.startsWith(':')) continue; // keep-alive comment
        events.push(e);
      }
    }
    state.ended = true;
  })().catch((err) => {
    state.ended = true;
    if (!ctl.signal.aborted) state.error = err;
  }); // the server may end the stream (a replica going away)
  return { events, state, done, close: () => ctl.abort(), lastId: () => events.filter((e) => e.id).at(-1)?.id };
}

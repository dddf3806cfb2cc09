/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * The events of a text/event-stream body, as they arrive. Not EventSource: it can only GET and
 * cannot send Authorization, while the gateway's subscriptions are POSTs with a bearer token.
 * Comments (the gateway's keep-alives) are skipped; a partial event at the end is dropped.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event: SseEvent = { event: 'message', data: '' };
  let hasData = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (hasData || event.event !== 'message') yield event;
          event = { event: 'message', data: '' };
          hasData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event.event = text;
        else if (field === 'id') event.id = text;
        else if (field === 'data') { event.data = hasData ? `${event.data}\n${text}` : text; hasData = true; }
      }
    }
  } finally {
    // a consumer that stopped early: the response ends here, not when the server next writes
    await reader.cancel().catch(() => undefined);
  }
}

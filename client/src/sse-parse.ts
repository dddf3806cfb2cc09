/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * The event-stream format, incrementally: feed decoded text, get whole events. Only what the
 * gateway sends matters (event, data, id; comments are keep-alives), but any line ending is accepted.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  feed(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // a lone \r at the end may be the first half of \r\n: wait for more
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length)
          out.push({
            event: this.event || 'message',
            data: this.data.join('\n'),
            ...(this.id !== undefined ? { id: this.id } : {}),
          });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    return out;
  }
}

/**
 * The events of a text/event-stream body as they arrive (not EventSource: it can only GET and
 * cannot send Authorization). A consumer that stops early cancels the body: the response ends then.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  // an abort ends a read that is waiting for the server: the loop then sees `done`
  const onAbort = () => {
    void reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield* parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => undefined);
  }
}

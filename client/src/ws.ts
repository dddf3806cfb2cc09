import { createClient } from 'graphql-ws';
import { NvcfError, type GraphQLErrorShape } from './errors.js';
import { Channel } from './channel.js';
import type { Frame, Transport, TransportContext } from './transport.js';

/** A WebSocket class: the browser's, Node 22's global one, or the `ws` package's on Node 20. */
export type WebSocketImpl = unknown;

/** graphql-ws close codes the gateway uses for refusals (anything else is a broken connection). */
const closeCodes: Record<number, string> = {
  4400: 'BAD_USER_INPUT',
  4401: 'UNAUTHENTICATED',
  4403: 'FORBIDDEN',
  4429: 'RATE_LIMITED',
};

/**
 * graphql-transport-ws, one connection per watch: graphql-ws does not retry it (retryAttempts 0),
 * the watch reconnects and resumes with `after`, so there is one resume logic for both transports.
 */
export function wsTransport(ctx: TransportContext, webSocketImpl: WebSocketImpl): Transport {
  const impl = webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
  if (!impl)
    throw new NvcfError(
      'BAD_USER_INPUT',
      'no WebSocket implementation here (Node 20): pass `webSocketImpl` (the `ws` package) or use transport: "sse"',
    );
  const url = ctx.url.replace(/^http/, 'ws');
  return async function* open(body, signal): AsyncGenerator<Frame> {
    const frames = new Channel<Frame>();
    const client = createClient({
      url,
      webSocketImpl: impl,
      lazy: true,
      retryAttempts: 0,
      connectionParams: async () => {
        const h = await ctx.headers();
        return h.authorization ? { authorization: h.authorization } : {};
      },
      on: {
        connected: () => frames.push({ kind: 'open' }),
        closed: (event) => {
          const e = event as { code?: number; reason?: string };
          const code = e.code !== undefined ? closeCodes[e.code] : undefined;
          frames.fail(
            code
              ? new NvcfError(code, e.reason || `the gateway closed the connection (${e.code})`)
              : NvcfError.unavailable(
                  url,
                  new Error(`connection closed (${e.code ?? 'no code'}${e.reason ? `: ${e.reason}` : ''})`),
                ),
          );
        },
      },
    });
    // graphql-ws wants `query` a string; with a document id the gateway runs the trusted document
    const unsubscribe = client.subscribe(
      { query: '', ...body },
      {
        next: (r) =>
          frames.push({
            kind: 'result',
            data: r.data,
            errors: r.errors as GraphQLErrorShape[] | undefined,
          }),
        error: (err) =>
          frames.fail(
            Array.isArray(err)
              ? NvcfError.fromErrors(err as GraphQLErrorShape[])
              : err instanceof NvcfError
                ? err
                : NvcfError.unavailable(url, err),
          ),
        complete: () => frames.end(),
      },
    );
    const onAbort = () => frames.end();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      yield* frames;
    } finally {
      signal.removeEventListener('abort', onAbort);
      unsubscribe();
      void client.dispose();
    }
  };
}

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { NvcfError, isTransient } from './errors.js';
import { requestBody, readResult, type DocumentMode } from './request.js';
import { sseTransport } from './sse.js';
import type { WebSocketImpl } from './ws.js';
import { watchStatus, type WatchFilter, type WatchItem, type WatchOptions } from './watch.js';
import type { Transport, TransportContext } from './transport.js';

export interface ClientOptions {
  /** the gateway's GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql (a bare origin gets /graphql) */
  url: string;
  /** the bearer token, or a function returning a fresh one for each request */
  token?: string | (() => string | Promise<string>);
  /** extra headers on every HTTP request */
  headers?: Record<string, string>;
  /**
   * `id` (the default): generated operations are sent by their trusted-document id, and by their
   * text only if the gateway does not know the id; `text`: always the text (docs/schema.md).
   */
  documents?: DocumentMode;
  /** subscription transport: `sse` (default; fetch only) or `ws` (graphql-transport-ws) */
  transport?: 'sse' | 'ws';
  /** for transport `ws` where there is no global WebSocket (Node 20): the `ws` package's class */
  webSocketImpl?: WebSocketImpl;
  /** per-request timeout for queries and mutations (default 30 s) */
  timeoutMs?: number;
  /** retries of a query on a transient failure (UNAVAILABLE, RATE_LIMITED…); mutations are never retried (default 2) */
  queryRetries?: number;
  fetch?: typeof fetch;
}

/** The variables argument: optional when the operation has none. */
export type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

export interface NvcfClient {
  readonly url: string;
  /** runs a query; retried on transient failures */
  query<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    ...variables: VariablesArg<TVariables>
  ): Promise<TData>;
  /** runs a mutation, once: on TIMEOUT or UNAVAILABLE read the object before trying again */
  mutate<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    ...variables: VariablesArg<TVariables>
  ): Promise<TData>;
  /** the status stream of the matching instances, resumed by itself across broken connections */
  watch(filter: WatchFilter, options?: WatchOptions): AsyncGenerator<WatchItem>;
}

const endpoint = (url: string) => {
  const u = new URL(url);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/graphql';
  return u.toString();
};

export function createClient(options: ClientOptions): NvcfClient {
  const url = endpoint(options.url);
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.queryRetries ?? 2;
  // shared by every call: once the gateway is known not to serve ids, stop asking
  const documents = { mode: options.documents ?? 'id' };
  const headers = async (): Promise<Record<string, string>> => {
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    return { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  };
  const ctx: TransportContext = { url, headers, fetch: fetchImpl };
  // graphql-ws is loaded by the first WebSocket watch only: SSE needs nothing but fetch
  const transport: Transport =
    options.transport === 'ws'
      ? async function* (body, signal) {
          const { wsTransport } = await import('./ws.js');
          yield* wsTransport(ctx, options.webSocketImpl)(body, signal);
        }
      : sseTransport(ctx);

  async function once<TData>(document: TypedDocumentNode<TData, never>, variables: unknown): Promise<TData> {
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          ...(await headers()),
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
        },
        body: JSON.stringify(await requestBody(document, variables, documents.mode)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      if ((cause as Error)?.name === 'TimeoutError')
        throw new NvcfError('TIMEOUT', `no answer from ${url} within ${timeoutMs} ms`, { cause });
      throw NvcfError.unavailable(url, cause);
    }
    return readResult<TData>(res, url);
  }

  async function send<TData>(
    document: TypedDocumentNode<TData, never>,
    variables: unknown,
    attempts: number,
  ): Promise<TData> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(document, variables);
      } catch (err) {
        // the gateway does not have this id (an older manifest, or TRUSTED_DOCUMENTS=off): send the text
        if (err instanceof NvcfError && err.code === 'PERSISTED_QUERY_NOT_FOUND' && documents.mode === 'id') {
          documents.mode = 'text';
          attempt--;
          continue;
        }
        if (attempt >= attempts || !isTransient(err)) throw err;
        const e = err as NvcfError;
        await new Promise((r) =>
          setTimeout(r, e.retryAfterSeconds !== undefined ? e.retryAfterSeconds * 1000 : 200 * 2 ** attempt),
        );
      }
    }
  }

  return {
    url,
    query: (document, ...variables) => send(document, variables[0], retries),
    mutate: (document, ...variables) => send(document, variables[0], 0),
    watch: (filter, opts) => watchStatus(transport, documents, filter, opts),
  };
}

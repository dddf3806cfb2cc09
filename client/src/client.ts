import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { NvcfError, isTransient } from './errors.js';
import {
  bodyOf,
  checkVariables,
  encode,
  readResult,
  resolveDocument,
  type DocumentMode,
  type OperationKind,
  type ResolvedDocument,
} from './request.js';
import { sseTransport } from './sse.js';
import type { WebSocketImpl } from './ws.js';
import {
  watchStatus,
  watchTasks,
  type TaskWatchFilter,
  type TaskWatchItem,
  type WatchFilter,
  type WatchItem,
  type WatchOptions,
} from './watch.js';
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

/**
 * The result of a document that carries no types (a string, a graphql-js DocumentNode, which a
 * TypedDocumentNode without types accepts): name it with a type argument.
 */
export type UntypedData = Record<string, unknown>;

/**
 * query, mutate and subscribe take a generated document (typed; sent by its trusted-document id),
 * a graphql-js DocumentNode, or the text of one operation (sent as text). A mistake in the
 * program — not a document, a syntax error, variables that are not an object or not JSON, the
 * wrong method for the operation — is thrown before anything is sent (`BAD_USER_INPUT`,
 * `GRAPHQL_PARSE_FAILED`); `UNAVAILABLE` means the gateway could not be reached, nothing else.
 */
export interface NvcfClient {
  readonly url: string;
  /** runs a query; retried on transient failures */
  query<TData = UntypedData, TVariables = Record<string, unknown>>(
    document: TypedDocumentNode<TData, TVariables> | string,
    ...variables: VariablesArg<TVariables>
  ): Promise<TData>;
  /** runs a mutation, once: on TIMEOUT or UNAVAILABLE read the object before trying again */
  mutate<TData = UntypedData, TVariables = Record<string, unknown>>(
    document: TypedDocumentNode<TData, TVariables> | string,
    ...variables: VariablesArg<TVariables>
  ): Promise<TData>;
  /**
   * One subscription: each result's data, until the server completes it or the loop stops
   * (`break`). Not resumed after a broken connection (that ends it with `UNAVAILABLE`): for the
   * status stream `watch` does that.
   */
  subscribe<TData = UntypedData, TVariables = Record<string, unknown>>(
    document: TypedDocumentNode<TData, TVariables> | string,
    ...variables: VariablesArg<TVariables>
  ): AsyncGenerator<TData>;
  /** the status stream of the matching instances, resumed by itself across broken connections */
  watch(filter: WatchFilter, options?: WatchOptions): AsyncGenerator<WatchItem>;
  /** the transitions of one task (or of every task of the tenant), resumed by itself like `watch` */
  watchTasks(filter: TaskWatchFilter, options?: WatchOptions): AsyncGenerator<TaskWatchItem>;
}

const methodOf: Record<OperationKind, string> = { query: 'query', mutation: 'mutate', subscription: 'subscribe' };

/** The document, checked for the method it was given to: a mutation through query() would be retried. */
async function prepare(document: unknown, variables: unknown, expected: OperationKind): Promise<ResolvedDocument> {
  checkVariables(variables);
  const doc = await resolveDocument(document);
  if (doc.operation !== expected)
    throw new NvcfError(
      'BAD_USER_INPUT',
      `the document is a ${doc.operation}: run it with ${methodOf[doc.operation]}(), not ${methodOf[expected]}()`,
    );
  return doc;
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

  /** The request's headers, checked here: a bad token or header is the program's mistake, not an outage. */
  async function requestHeaders(extra: Record<string, string>): Promise<Record<string, string>> {
    const h = { ...(await headers()), ...extra };
    try {
      new Headers(h);
    } catch (cause) {
      throw new NvcfError('BAD_USER_INPUT', `a request header is not valid: ${(cause as Error).message}`, { cause });
    }
    return h;
  }

  async function once<TData>(body: Record<string, unknown>): Promise<TData> {
    const payload = encode(body);
    const h = await requestHeaders({
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    });
    let res: Response;
    try {
      res = await fetchImpl(url, { method: 'POST', headers: h, body: payload, signal: AbortSignal.timeout(timeoutMs) });
    } catch (cause) {
      if ((cause as Error)?.name === 'TimeoutError')
        throw new NvcfError('TIMEOUT', `no answer from ${url} within ${timeoutMs} ms`, { cause });
      throw NvcfError.unavailable(url, cause);
    }
    return readResult<TData>(res, url);
  }

  async function send<TData>(
    document: unknown,
    variables: unknown,
    expected: OperationKind,
    attempts: number,
  ): Promise<TData> {
    const doc = await prepare(document, variables, expected);
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(await bodyOf(doc, variables, documents.mode));
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

  async function* subscribe<TData>(document: unknown, variables: unknown): AsyncGenerator<TData> {
    const doc = await prepare(document, variables, 'subscription');
    const stop = new AbortController();
    try {
      for (;;) {
        const body = await bodyOf(doc, variables, documents.mode);
        // variables JSON cannot hold fail here as BAD_USER_INPUT, not inside the transport as an outage
        encode(body);
        let received = false;
        try {
          for await (const frame of transport(body, stop.signal)) {
            if (frame.kind === 'open') continue;
            if (frame.errors?.length) throw NvcfError.fromErrors(frame.errors);
            received = true;
            if (frame.data != null) yield frame.data as TData;
          }
          return;
        } catch (err) {
          // as for queries: a gateway without this id gets the text, once, before anything arrived
          if (
            !received &&
            err instanceof NvcfError &&
            err.code === 'PERSISTED_QUERY_NOT_FOUND' &&
            documents.mode === 'id'
          ) {
            documents.mode = 'text';
            continue;
          }
          throw err;
        }
      }
    } finally {
      stop.abort();
    }
  }

  return {
    url,
    query: (document: unknown, variables?: unknown) => send(document, variables, 'query', retries),
    mutate: (document: unknown, variables?: unknown) => send(document, variables, 'mutation', 0),
    subscribe: (document: unknown, variables?: unknown) => subscribe(document, variables),
    watch: (filter, opts) => watchStatus(transport, documents, filter, opts),
    watchTasks: (filter, opts) => watchTasks(transport, documents, filter, opts),
  } as NvcfClient;
}

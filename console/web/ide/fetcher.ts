import type { ComponentProps } from 'react';
import type { GraphiQL } from 'graphiql';
import {
  GraphQLError,
  getOperationAST,
  OperationTypeNode,
  parse,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import { readSse } from '@nvcf/client';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];
type Params = Parameters<Fetcher>[0];
type Observer = { next(r: ExecutionResult): void; error(e: unknown): void; complete(): void };
type PartialObserver = Partial<Observer>;
type Next = (r: ExecutionResult) => void;

/** Reconnects after a stream that ended without `complete` (a replica draining, a dropped connection). */
const RETRY_MS = [250, 1000, 2000, 5000];
const MAX_RETRIES = 8;

/** The header editor's JSON object as request headers (GraphiQL hands it over parsed, values untyped). */
function requestHeaders(edited: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(edited ?? {}))
    if (v != null) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

function isSubscription(params: Params, documentAST: DocumentNode | undefined): boolean {
  let doc = documentAST;
  if (!doc) {
    try {
      doc = parse(params.query);
    } catch {
      return false;
    }
  }
  return getOperationAST(doc, params.operationName ?? undefined)?.operation === OperationTypeNode.SUBSCRIPTION;
}

/** A body that is not a GraphQL response (a proxy's page, a 502) as an error the response pane can show. */
async function asResult(res: Response): Promise<ExecutionResult> {
  const text = await res.text();
  try {
    return JSON.parse(text) as ExecutionResult;
  } catch {
    return failure(`HTTP ${res.status} ${res.statusText}: ${text.slice(0, 300)}`);
  }
}

const failure = (message: string): ExecutionResult => ({ errors: [new GraphQLError(message)] });

function parseEvent(data: string): ExecutionResult {
  try {
    return JSON.parse(data) as ExecutionResult;
  } catch {
    return failure(`not JSON: ${data.slice(0, 300)}`);
  }
}

/**
 * Queries and mutations: one POST. Subscriptions: graphql-sse distinct connections (POST with
 * Accept: text/event-stream), the path every client of the gateway takes for instanceStatusChanged:
 * each event's SSE id is its cursor, and a stream that ends without `complete` is resumed with
 * Last-Event-ID, so the IDE sees exactly the events it missed, like any other client.
 */
export function gatewayFetcher(endpoint: string, initialHeaders: Record<string, string>): Fetcher {
  return (params, opts) => {
    // GraphiQL reads the schema as it mounts, before its header editor exists, and then sends no
    // headers at all (not even an empty set): that one request carries the page's own
    const headers = opts && 'headers' in opts ? requestHeaders(opts.headers) : { ...initialHeaders };
    const variables: unknown = params.variables; // GraphiQL types them `any`
    const body = JSON.stringify({
      query: params.query,
      variables: variables ?? undefined,
      operationName: params.operationName ?? undefined,
    });
    if (!isSubscription(params, opts?.documentAST)) {
      return fetch(endpoint, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...headers,
        },
      }).then(asResult);
    }
    return {
      // GraphiQL stops an Observable at once; an async generator would wait for its next event
      subscribe(first?: Next | PartialObserver, error?: ((e: unknown) => void) | null, complete?: () => void) {
        const given: PartialObserver =
          typeof first === 'function' ? { next: first, error: error ?? undefined, complete } : (first ?? {});
        const observer: Observer = {
          next: (r) => given.next?.(r),
          error: (e) => given.error?.(e),
          complete: () => given.complete?.(),
        };
        const abort = new AbortController();
        void stream(endpoint, body, headers, abort.signal, observer);
        return { unsubscribe: () => abort.abort() };
      },
    };
  };
}

async function stream(
  endpoint: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  observer: Observer,
) {
  let lastEventId: string | undefined;
  let retries = 0;
  try {
    for (;;) {
      let res: Response | undefined;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          body,
          signal,
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...headers,
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          },
        });
      } catch (err) {
        if (signal.aborted) return;
        if (retries >= MAX_RETRIES) return observer.error(err);
      }
      // a replica that is draining refuses new streams with 503: another one (or this one, restarted) takes it
      const unavailable = res?.status === 503 && retries < MAX_RETRIES;
      if (res && !unavailable && !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        // refused before streaming (authentication, validation, an expired cursor): the answer is the error
        observer.next(await asResult(res));
        return observer.complete();
      }
      if (unavailable) await res?.body?.cancel().catch(() => undefined);
      else if (res?.body) {
        try {
          for await (const event of readSse(res.body, signal)) {
            if (event.event === 'complete') return observer.complete();
            if (event.event !== 'next') continue;
            if (event.id) lastEventId = event.id;
            retries = 0;
            observer.next(parseEvent(event.data));
          }
        } catch (err) {
          if (signal.aborted) return;
          if (retries >= MAX_RETRIES) return observer.error(err);
        }
      }
      if (signal.aborted) return;
      if (retries >= MAX_RETRIES)
        return observer.error(new Error(`the subscription stream ended ${retries} times in a row; run it again`));
      await wait(RETRY_MS[Math.min(retries, RETRY_MS.length - 1)], signal);
      retries++;
    }
  } catch (err) {
    if (!signal.aborted) observer.error(err);
  }
}

function wait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

import { print } from 'graphql';
import { createClient as createWsClient } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { waitUntil } from '@nvcf/testing';

export interface Collected<T> extends AsyncDisposable {
  events: T[];
  errors: unknown[];
  completed: boolean;
  /** resolves once `pred` holds over the events received so far */
  until(pred: (events: T[]) => boolean, what?: string, timeoutMs?: number): Promise<T[]>;
  dispose(): Promise<void>;
}

function collector<T>(stop: () => void | Promise<void>): Collected<T> {
  const c: Collected<T> = {
    events: [],
    errors: [],
    completed: false,
    until: (pred, what = 'events', timeoutMs = 20_000) =>
      waitUntil(
        () => {
          if (c.errors.length) throw new Error(`subscription failed: ${JSON.stringify(c.errors)}`);
          return pred(c.events) && c.events;
        },
        { timeoutMs, what },
      ),
    dispose: async () => {
      await stop();
    },
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
  return c;
}

/** Subscribes over graphql-ws (graphql-transport-ws protocol). */
export function wsSubscribe<T, V>(
  wsUrl: string,
  token: string | undefined,
  doc: TypedDocumentNode<T, V>,
  variables: V,
): Collected<T> {
  const client = createWsClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
  let unsubscribe = () => {};
  const c = collector<T>(async () => {
    unsubscribe();
    await client.dispose();
  });
  unsubscribe = client.subscribe<T>(
    { query: print(doc), variables: variables as Record<string, unknown> },
    {
      next: (v) => {
        if (v.errors?.length) c.errors.push(v.errors);
        else c.events.push(v.data as T);
      },
      error: (e) =>
        c.errors.push(e instanceof Error ? e.message : ((e as { code?: number; reason?: string }).reason ?? e)),
      complete: () => {
        c.completed = true;
      },
    },
  );
  return c;
}

/** Subscribes over Server-Sent Events (graphql-sse, distinct connections mode). */
export function sseSubscribe<T, V>(
  url: string,
  token: string | undefined,
  doc: TypedDocumentNode<T, V>,
  variables: V,
): Collected<T> {
  const client = createSseClient({
    url,
    singleConnection: false,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  let unsubscribe = () => {};
  const c = collector<T>(() => {
    unsubscribe();
    client.dispose();
  });
  unsubscribe = client.subscribe<T>(
    { query: print(doc), variables: variables as Record<string, unknown> },
    {
      next: (v) => {
        if (v.errors?.length) c.errors.push(v.errors);
        else c.events.push(v.data as T);
      },
      error: (e) => c.errors.push(e instanceof Error ? e.message : e),
      complete: () => {
        c.completed = true;
      },
    },
  );
  return c;
}

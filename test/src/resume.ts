import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

type Event = { instanceStatusChanged: { cursor: string } };

/**
 * A client that survives a gateway replica going away: on close it resubscribes to the next
 * replica with `after` = the last cursor it received (what the API asks clients to do).
 */
export function resumingSubscription<T extends Event, V extends Record<string, unknown>>(
  wsUrls: string[],
  token: string,
  doc: TypedDocumentNode<T, V>,
  variables: V,
) {
  const events: T[] = [];
  const errors: unknown[] = [];
  let attempt = 0;
  let stopped = false;
  let current: { dispose(): void } | undefined;
  const closes: number[] = [];
  const connect = () => {
    const url = wsUrls[Math.min(attempt, wsUrls.length - 1)];
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
      on: { closed: (e: any) => closes.push(e?.code) },
    });
    const after = events.at(-1)?.instanceStatusChanged.cursor;
    const unsubscribe = client.subscribe<T>(
      { query: print(doc), variables: { ...variables, ...(after ? { after } : {}) } },
      {
        next: (v) => {
          if (v.errors) errors.push(v.errors);
          else events.push(v.data as T);
        },
        error: () => {
          if (!stopped) {
            attempt++;
            connect();
          }
        },
        complete: () => {},
      },
    );
    current = {
      dispose: () => {
        unsubscribe();
        void client.dispose();
      },
    };
  };
  connect();
  return {
    events,
    errors,
    closes,
    reconnects: () => attempt,
    dispose: () => {
      stopped = true;
      current?.dispose();
    },
  };
}

import type { ExecutionResult } from 'graphql';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { corkForBurst } from './cork.js';
import { serializedResult } from './serialize.js';

// All subscriptions of a connection (up to 100) wait on one promise, not one listener pair each.
const draining = new WeakMap<Socket, Promise<void>>();
function drained(tcp: Socket): Promise<void> {
  let p = draining.get(tcp);
  if (!p) {
    p = new Promise<void>((resolve) => {
      const done = () => {
        tcp.off('drain', done);
        tcp.off('close', done);
        draining.delete(tcp);
        resolve();
      };
      tcp.on('drain', done);
      tcp.on('close', done);
    });
    draining.set(tcp, p);
  }
  return p;
}

/**
 * Writes a status subscription's `next` frames straight to the socket: the frame is the
 * subscription's fixed head plus the event's shared JSON, where graphql-ws would stringify every
 * frame for every subscriber. graphql-ws still owns the subscription: it awaits the returned
 * iterator, which yields nothing and settles when the feed ends (done) or fails (the error, as
 * before), and it calls `return()` when the client completes or the socket closes. `tcp` is the
 * connection under the WebSocket: the upgrade request's socket (graphql-ws's `extra.request.socket`),
 * which ws writes to, so its backpressure is the WebSocket's.
 */
export function sendFramesDirectly(
  events: AsyncIterator<{ result: ExecutionResult }>,
  socket: WebSocket,
  tcp: Socket | undefined,
  id: string,
  release: () => void,
): AsyncIterableIterator<never> {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  const pump = (async () => {
    for (;;) {
      const r = await events.next();
      if (r.done || socket.readyState !== socket.OPEN) return;
      corkForBurst(tcp);
      socket.send(`${head}${serializedResult(r.value.result)}}`);
      // backpressure: a socket the kernel is not taking from pulls no more events, so its feed
      // conflates instead of the gateway buffering without bound
      if (tcp?.writableNeedDrain) await drained(tcp);
    }
  })();
  pump.catch(() => {}); // surfaced through next()
  const done = { done: true as const, value: undefined as never };
  const it: AsyncIterableIterator<never> = {
    next: async () => {
      try {
        await pump;
        return done;
      } finally {
        release();
      }
    },
    return: async () => {
      release();
      await events.return?.();
      return done;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}

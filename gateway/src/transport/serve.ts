import type { IncomingMessage } from 'node:http';
import type { WebSocketServer } from 'ws';
import { CloseCode, type Server } from 'graphql-ws';
import { createLogger } from '@nvcf/logging';
import { Connection, type ConnectionOptions } from './connection.js';

const log = createLogger('gateway');

/** What graphql-ws hands every hook of a connection as `ctx.extra`: the connection, never its socket. */
export interface ConnectionExtra {
  connection: Connection;
  request: IncomingMessage;
}

/**
 * graphql-ws on a ws server, as its `use/ws` adapter does it, with the gateway's Connection as the
 * socket: one per WebSocket, which graphql-ws's server speaks the protocol through. The server's
 * WebSocketServer must pick graphql-ws's subprotocol (`handleProtocols`) and negotiate no extension.
 */
export function serveGraphqlWs<E extends ConnectionExtra>(
  wss: WebSocketServer,
  server: Server<E>,
  extra: (connection: Connection, request: IncomingMessage) => E,
  opts: ConnectionOptions = {},
) {
  const connections = new Set<Connection>();
  wss.on('connection', (ws, request) => {
    let connection: Connection;
    try {
      connection = new Connection(ws, request.socket, opts);
    } catch (err) {
      log.error('websocket refused', err);
      return ws.close(CloseCode.InternalServerError, 'Internal server error');
    }
    connections.add(connection);
    const closed = server.opened(connection, extra(connection, request));
    ws.once('close', (code, reason) => {
      connections.delete(connection);
      closed(code, String(reason)).catch((err: unknown) => log.error('websocket close failed', err));
    });
  });
  return {
    /** closes every connection with `code` (each after the messages queued before it) */
    close: (code: number, reason: string) => {
      for (const c of connections) c.close(code, reason);
    },
    dispose: async () => {
      for (const c of connections) c.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

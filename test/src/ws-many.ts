import WebSocket from 'ws';
import { wsText } from './probe.js';

/** What one operation on a shared connection received. */
export interface WsOperation {
  id: string;
  nexts: { data?: any; errors?: any[] }[];
  /** the payload of an `error` message (graphql-ws ends the operation with it) */
  error?: any[];
  completed: boolean;
}

export interface WsConnection {
  operations: Map<string, WsOperation>;
  /** set when the socket closed */
  closed?: { code: number; reason: string };
  close(): Promise<void>;
}

/**
 * One graphql-transport-ws connection carrying many subscriptions, as a client multiplexing its
 * watches does: connection_init, then every `subscribe` at once. Resolves once acknowledged.
 */
export async function wsMany(
  wsUrl: string,
  token: string,
  subscriptions: { id: string; query: string; variables?: Record<string, unknown> }[],
): Promise<WsConnection> {
  const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
  const conn: WsConnection = {
    operations: new Map(subscriptions.map((s) => [s.id, { id: s.id, nexts: [], completed: false }])),
    close: async () => {
      if (ws.readyState === WebSocket.CLOSED) return;
      const gone = new Promise((resolve) => ws.once('close', resolve));
      ws.close();
      await gone;
    },
  };
  const acked = new Promise<void>((resolve, reject) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(wsText(raw)) as { type: string; id?: string; payload?: any };
      if (m.type === 'connection_ack') return resolve();
      const op = m.id === undefined ? undefined : conn.operations.get(m.id);
      if (!op) return;
      if (m.type === 'next') op.nexts.push(m.payload);
      else if (m.type === 'error') op.error = m.payload;
      else if (m.type === 'complete') op.completed = true;
    });
    ws.once('error', reject);
    ws.once('close', (code, reason) => {
      conn.closed = { code, reason: String(reason) };
      reject(new Error(`closed before connection_ack: ${code} ${String(reason)}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await acked;
  for (const s of subscriptions)
    ws.send(JSON.stringify({ id: s.id, type: 'subscribe', payload: { query: s.query, variables: s.variables } }));
  return conn;
}

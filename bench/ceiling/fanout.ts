// The fair ceiling: status events from the bus fanned out over WebSockets with the gateway's
// batching (frames built once per event, one write per connection per turn) and nothing else —
// no GraphQL execution, no authentication, no cursors, no per-subscriber queue. What ours does on
// top of this shows up as the gap to it; if ours delivers more, this is not a ceiling.
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Bus } from '@nvcf/bus';
import { Streams, subjects, type StatusEvent } from '@nvcf/contracts';
// the gateway's own per-connection batching (one write per connection per turn), uncapped: never less batching than ours
import { Outbox } from '@nvcf/http';
import { payloadOf } from './payload.js';

export interface CeilingOptions {
  bus: Bus;
  tenant: string;
  /** only this function's events are sent, as the GraphQL paths filter a shared stream */
  functionId: string;
  host?: string;
  port?: number;
}

export interface Ceiling extends AsyncDisposable {
  /** graphql-transport-ws endpoint */
  url: string;
}

interface Connection {
  box: Outbox;
  /** subscription id → the start of its `next` message, encoded once at subscribe */
  heads: Map<string, Buffer>;
}

export async function startCeiling(o: CeilingOptions): Promise<Ceiling> {
  const live = new Set<Connection>();
  const wss = new WebSocketServer({ host: o.host ?? '127.0.0.1', port: o.port ?? 0, path: '/graphql' });
  wss.on('connection', (ws, req) => {
    const conn: Connection = {
      box: new Outbox((frames) => {
        // after its close frame a socket takes no data frames
        if (ws.readyState === ws.OPEN && !req.socket.destroyed) req.socket.write(frames);
      }, Infinity),
      heads: new Map(),
    };
    // binaryType 'nodebuffer', ws's default: a message is one Buffer
    ws.on('message', (raw: Buffer) => onMessage(ws, conn, live, raw));
    ws.on('close', () => live.delete(conn));
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });

  await o.bus.ensureStreams([Streams.status]); // a fresh NATS has no stream until a control plane ran
  // the gateway's reader: one ordered ephemeral consumer from now on, here filtered to the tenant
  const tail = await o.bus.tail<StatusEvent>(
    { stream: Streams.status.name, filterSubject: subjects.statusOfTenant(o.tenant) },
    ({ data: e, seq }) => {
      if (e.functionId !== o.functionId) return;
      const body = payloadOf(e, seq);
      for (const { box, heads } of live) for (const head of heads.values()) box.push(head, body);
    },
  );

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://${o.host ?? '127.0.0.1'}:${port}/graphql`,
    async [Symbol.asyncDispose]() {
      await tail.stop();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Just enough graphql-transport-ws for the graphql-ws client the load uses on every path: the
 * client side of the measurement is then the same code everywhere.
 */
function onMessage(ws: WebSocket, conn: Connection, live: Set<Connection>, raw: Buffer) {
  let m: { type?: unknown; id?: unknown };
  try {
    m = JSON.parse(raw.toString()) as { type?: unknown; id?: unknown };
  } catch {
    return ws.close(4400, 'not JSON');
  }
  const id = typeof m.id === 'string' ? m.id : undefined;
  if (m.type === 'connection_init') {
    ws.send('{"type":"connection_ack"}');
    live.add(conn);
  } else if (m.type === 'ping') ws.send('{"type":"pong"}');
  else if (m.type === 'subscribe' && id)
    conn.heads.set(id, Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`));
  else if (m.type === 'complete' && id) conn.heads.delete(id);
}

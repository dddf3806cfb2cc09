// The subscription ceiling: status events from NATS fanned out over raw WebSockets, with no
// GraphQL, no per-subscriber queue and no per-socket serialisation. Whatever a real path does
// on top of this (execution, filters, conflation, auth) shows up as the gap to this number.
// tsx --conditions=source bench/ceiling/server.ts   env: NATS_URL, CEILING_TENANT (nca-a), CEILING_FUNCTION_ID, PORT (0)
import { WebSocketServer, type WebSocket } from 'ws';
import { createNatsBus } from '@nvcf/bus';
import { Streams, subjects, type StatusEvent } from '@nvcf/contracts';

const natsUrl = process.env.NATS_URL;
const functionId = process.env.CEILING_FUNCTION_ID;
if (!natsUrl || !functionId) throw new Error('NATS_URL and CEILING_FUNCTION_ID are required');
const tenant = process.env.CEILING_TENANT ?? 'nca-a';

// Speaks just enough graphql-transport-ws for the graphql-ws client the load uses on every
// path: the client side of the measurement is then the same code everywhere.
// per socket: subscription id → the start of its `next` message, escaped once at subscribe
const subscribed = new Map<WebSocket, Map<string, string>>();
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/graphql' });
wss.on('connection', (ws) => {
  ws.on('message', (raw: Buffer) => {
    let m: { type?: string; id?: string };
    try {
      m = JSON.parse(raw.toString()) as { type?: string; id?: string };
    } catch {
      return ws.close(4400, 'not JSON');
    }
    if (m.type === 'connection_init') {
      ws.send('{"type":"connection_ack"}');
      subscribed.set(ws, new Map());
    } else if (m.type === 'ping') ws.send('{"type":"pong"}');
    else if (m.type === 'subscribe' && m.id)
      subscribed.get(ws)?.set(m.id, `{"id":${JSON.stringify(m.id)},"type":"next","payload":`);
    else if (m.type === 'complete' && m.id) subscribed.get(ws)?.delete(m.id);
  });
  ws.on('close', () => subscribed.delete(ws));
});

const bus = await createNatsBus({ servers: natsUrl, name: 'bench-ceiling' });
await bus.ensureStreams([Streams.status]); // a fresh NATS has no stream until a control plane ran
// The same reader as the gateway's fan-out: one ordered ephemeral JetStream consumer (bus.tail),
// here filtered to the tenant's subjects, starting with messages published from now on.
const tail = await bus.tail<StatusEvent>(
  { stream: Streams.status.name, filterSubject: subjects.statusOfTenant(tenant) },
  ({ data: e, seq }) => {
    // NATS is shared with other benchmarks: only this run's function, as the GraphQL paths filter
    if (e.functionId !== functionId) return;
    // serialised once per event; the cursor is the bare stream sequence (ours is signed, so a little more work)
    const payload = JSON.stringify({
      data: {
        instanceStatusChanged: {
          cursor: String(seq),
          state: e.state,
          at: e.at,
          message: e.message ?? null,
          instance: { id: e.instanceId, cluster: { id: e.clusterId } },
        },
      },
    });
    const end = `${payload}}`;
    // no backpressure or conflation: an upper bound, not a server
    for (const [ws, subs] of subscribed) for (const head of subs.values()) ws.send(head + end);
  },
);

await new Promise<void>((r) => (wss.address() ? r() : wss.once('listening', () => r())));
const { port } = wss.address() as import('node:net').AddressInfo;
console.log(`ceiling listening on ws://127.0.0.1:${port}/graphql`);

const stop = async () => {
  for (const ws of wss.clients) ws.terminate();
  wss.close();
  await tail.stop();
  await bus.dispose();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

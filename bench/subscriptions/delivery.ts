// The gateway's status delivery path on its own, in one process and without NATS or Cassandra:
// StatusService on the memory bus (stream index, subscriber feeds, shared execution and result
// cache) and the connection's batching writer, N subscriptions over WebSocket connections, the
// clients in a child process (they only count frames). Prints server CPU per delivery, the figure
// bench/ANALYSIS.md compares before and after a change to the fan-out.
// tsx --conditions=source bench/subscriptions/delivery.ts [events=300] [connections=10] [per connection=100]
import http from 'node:http';
import { spawn } from 'node:child_process';
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams, subjects } from '@nvcf/contracts';
import { Connection, StatusService, StatusSubscription, statusOperation } from '@nvcf/gateway/status';
import { activeAgain } from './events.js';

const [EVENTS, CONNS, PER] = [300, 10, 100].map((d, i) => Number(process.argv[2 + i] ?? d));
const QUERY =
  'subscription($f: ID) { instanceStatusChanged(functionId: $f) { cursor state at message instance { id cluster { id } } } }';

const bus = createMemoryBus();
await bus.ensureStreams(allStreams);
// no remote instance fields are selected, so nothing is fetched through the supergraph
const service = new StatusService({
  bus,
  cursorSecret: 'bench-delivery-secret-0123456789abcdef',
  execute: () => Promise.reject(new Error('not used')),
});
await service.start();
const document = parse(QUERY);
const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
const op = operation && statusOperation({ document, operation, fragments: new Map<string, FragmentDefinitionNode>() });
if (!op) throw new Error('not a status operation');

const server = http.createServer();
const wss = new WebSocketServer({ server });
let opened = 0;
wss.on('connection', (ws: WebSocket, req) => {
  const connection = new Connection(ws, req.socket, { keepAliveMs: 0 });
  void (async () => {
    for (let i = 0; i < PER; i++) {
      const run = await service.run(op, { f: 'fn' }, 'nca-a', null, QUERY);
      if (!('events' in run)) throw new Error('subscription refused');
      const subscription = new StatusSubscription(run, () => {});
      subscription.attach(connection.nextWriter(`s${i}`));
      void subscription.next();
      opened++;
    }
  })();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as { port: number };
const total = EVENTS * CONNS * PER;
// the clients in their own process, so their parsing is not on this process's clock
const clients = `
  const WebSocket = require('ws'); let got = 0, open = 0;
  for (let i = 0; i < ${CONNS}; i++) { const ws = new WebSocket('ws://127.0.0.1:${port}');
    ws.on('open', () => { if (++open === ${CONNS}) console.log('open'); });
    ws.on('message', () => { if (++got === ${total}) console.log('done'); }); }`;
const child = spawn(process.execPath, ['-e', clients], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
const line = (s: string) =>
  new Promise<void>((resolve) => {
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes(s)) {
        child.stdout.off('data', on);
        resolve();
      }
    };
    child.stdout.on('data', on);
  });
await line('open');
while (opened < CONNS * PER) await new Promise((r) => setTimeout(r, 10));
const done = line('done');
let clock = Date.now() * 1000;
const cpu0 = process.cpuUsage(),
  t0 = Date.now();
for (let e = 0; e < EVENTS; e++) {
  const instanceId = `i${e % 10}`;
  const ev = activeAgain({
    ncaId: 'nca-a',
    functionId: 'fn',
    versionId: 'v',
    instanceId,
    clock: ++clock,
    message: String(Date.now()),
  });
  await bus.publish(subjects.status('nca-a', instanceId), ev);
  // ~200 events/s: each burst is fanned out before the next arrives
  await new Promise((r) => setTimeout(r, 5));
}
await done;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    deliveries: total,
    wall_ms: Date.now() - t0,
    server_cpu_us_per_delivery: Math.round(((cpu.user + cpu.system) / total) * 100) / 100,
  }),
);
child.kill();
process.exit(0);

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { WebSocket, WebSocketServer } from 'ws';
import { handleProtocols, makeServer, GRAPHQL_TRANSPORT_WS_PROTOCOL } from 'graphql-ws';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams, subjects, type StatusEvent } from '@nvcf/contracts';
import { StatusService } from '../../src/status/service.js';
import { statusOperation } from '../../src/status/operation.js';
import { StatusSubscription } from '../../src/status/subscription.js';
import { serveGraphqlWs, type ConnectionExtra } from '../../src/transport/serve.js';
import type { Connection } from '../../src/transport/connection.js';

export const TENANT = 'nca-a';
export const QUERY =
  'subscription($f: ID) { instanceStatusChanged(functionId: $f) { state message lag { skippedEvents resumeAfter } instance { id } } }';

type Message = { id?: string; type: string; payload?: unknown };
type StatusPayload = {
  data: { instanceStatusChanged: { message: string; instance: { id: string }; lag: { skippedEvents: number } | null } };
};
export type Next = { id: string; message: string; instance: string; lag: { skippedEvents: number } | null };

/**
 * graphql-ws served through the gateway's Connection, with status subscriptions on a memory bus
 * and nothing else of the gateway: what the transport does, seen from a raw ws client.
 */
export async function startStatusWs() {
  const bus = createMemoryBus();
  await bus.ensureStreams(allStreams);
  const status = new StatusService({
    bus,
    cursorSecret: 'transport-test-secret-0123456789abcdef',
    execute: () => Promise.reject(new Error('no remote fields in these tests')),
  });
  await status.start();
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false, handleProtocols });
  /** every write to the server's side of a connection's TCP socket */
  const writes: Buffer[] = [];
  const sockets: Socket[] = [];
  const connections: Connection[] = [];
  let released = 0;
  let attached = 0;
  const served = serveGraphqlWs(
    wss,
    makeServer<Record<string, unknown> | undefined, ConnectionExtra>({
      schema: status.schema.schema,
      subscribe: async (args) => {
        const operation = args.document.definitions.find(
          (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
        )!;
        const op = statusOperation({ document: args.document, operation, fragments: new Map() })!;
        const run = await status.run(op, args.variableValues ?? {}, TENANT, null, QUERY);
        if (!('events' in run)) return run;
        return new StatusSubscription(run, () => released++);
      },
      onOperation: (ctx, id, _payload, _args, result) => {
        if (result instanceof StatusSubscription) {
          result.attach(ctx.extra.connection.nextWriter(id));
          attached++;
        }
      },
    }),
    (connection, request: IncomingMessage) => {
      const tcp = request.socket;
      sockets.push(tcp);
      connections.push(connection);
      const write = (chunk: Buffer) => Object.getPrototypeOf(tcp).write.call(tcp, chunk) as boolean;
      tcp.write = (chunk: Buffer) => {
        writes.push(chunk);
        return write(chunk);
      };
      return { connection, request };
    },
    { keepAliveMs: 0 },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let clock = Date.now() * 1000;
  return {
    writes,
    sockets,
    connections,
    served,
    released: () => released,
    attached: () => attached,
    open: () => openClient(url),
    publish(instanceId: string, message: string, functionId = 'fn') {
      const ev: StatusEvent = {
        ncaId: TENANT,
        functionId,
        versionId: 'v',
        gpuSpecificationId: 's',
        clusterId: 'cluster-a',
        instanceId,
        state: 'ACTIVE',
        previousState: 'ACTIVE',
        revisionId: null,
        at: new Date().toISOString(),
        clock: ++clock,
        message,
      };
      return bus.publish(subjects.status(TENANT, instanceId), ev);
    },
    async [Symbol.asyncDispose]() {
      await served.dispose();
      await status.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A raw graphql-transport-ws client: what arrived, in order, and the close. */
async function openClient(url: string) {
  const ws = new WebSocket(url, GRAPHQL_TRANSPORT_WS_PROTOCOL);
  const messages: Message[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (raw) => messages.push(JSON.parse((raw as Buffer).toString()) as Message));
  ws.on('close', (code, reason) => (closed = { code, reason: String(reason) }));
  await new Promise((r) => ws.once('open', r));
  const send = (m: Message) => ws.send(JSON.stringify(m));
  return {
    ws,
    messages,
    closed: () => closed,
    send,
    async init() {
      send({ type: 'connection_init' });
      await until(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
    },
    subscribe(id: string, functionId = 'fn') {
      send({ id, type: 'subscribe', payload: { query: QUERY, variables: { f: functionId } } });
    },
    /** the `next` messages' status events */
    nexts: (): Next[] =>
      messages
        .filter((m) => m.type === 'next')
        .map((m) => {
          const e = (m.payload as StatusPayload).data.instanceStatusChanged;
          return { id: m.id!, message: e.message, instance: e.instance.id, lag: e.lag };
        }),
    [Symbol.dispose]() {
      ws.terminate();
    },
  };
}

/** Polls until `check` holds; never a blind sleep. */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import type { GraphQLError } from 'graphql';
import {
  handleProtocols,
  makeServer,
  type ServerOptions,
  type SubscribeMessage,
  type Context,
  type ConnectionInitMessage,
} from 'graphql-ws';
import { getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import type { Principal } from '@nvcf/auth';
import { fail } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';
import { statusOperation, type StatusOperation } from './status/operation.js';
import type { Admission, StatusService } from './status/service.js';
import { StatusSubscription } from './status/subscription.js';
import { serveGraphqlWs, type ConnectionExtra } from './transport/serve.js';
import { refusalErrors } from './guard/guard.js';
import type { FrontDoor } from './front.js';
import type { Runtime } from './runtime.js';

const log = createLogger('gateway');

type WsExtra = ConnectionExtra & { principal?: Principal; statusSubscriptions: number };
type Payload = ConnectionInitMessage['payload'];
type WsContext = Context<Payload, WsExtra>;

/**
 * The execution context of a status subscription, which the gateway executes itself: what the
 * guard admitted, from onSubscribe to subscribe (as the Hive runtime's context carries its params).
 */
class StatusRequest {
  constructor(
    readonly op: StatusOperation,
    readonly variables: Record<string, unknown>,
    readonly tenant: string,
    readonly query: string,
    /** the variables as sent and the schema the guard admitted the operation on (a reload checks them) */
    readonly admission: Admission,
    /** gives the subscription's place back to its connection's limit, once */
    readonly release: () => void,
  ) {}
}

/**
 * graphql-ws on the gateway. connection_init is authenticated before any operation is read;
 * every subscribe passes the front door's rate and guard; status subscriptions are served by
 * the replica's own fan-out, every other operation by the Hive runtime. Each WebSocket is owned
 * by one Connection (transport/), through which graphql-ws and the status fan-out both write.
 */
export function attachWebSocket(
  server: Server,
  runtime: Runtime,
  front: FrontDoor,
  status: StatusService,
  opts: { maxPerConnection: number; maxPayload: number },
) {
  // one message is bounded like one HTTP body; the connection frames messages itself, so no extension
  const wss = new WebSocketServer({
    server,
    path: '/graphql',
    maxPayload: opts.maxPayload,
    perMessageDeflate: false,
    handleProtocols,
  });
  const hive: ServerOptions<Payload, WsExtra> = getGraphQLWSOptions(runtime, (ctx: WsContext) => ({
    req: ctx.extra.request,
    tenant: ctx.extra.principal?.tenant,
    principal: ctx.extra.principal,
  }));
  const options: ServerOptions<Payload, WsExtra> = {
    ...hive,
    onConnect: async (ctx) => {
      try {
        ctx.extra.principal = await front.authenticate(
          ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization,
        );
        return true;
      } catch (err) {
        ctx.extra.connection.close(4401, `UNAUTHENTICATED: ${(err as Error).message}`.slice(0, 120));
        return false;
      }
    },
    onSubscribe: (ctx, id, payload: SubscribeMessage['payload']) => {
      try {
        const principal = ctx.extra.principal!;
        const admitted = front.admit(principal, payload);
        const op = statusOperation(admitted);
        // a trusted document's id: the engine gets the document (graphql-ws wants `query` a string: clients send "" with an id)
        if (!op)
          return hive.onSubscribe!(
            ctx,
            id,
            admitted.params === payload ? payload : (admitted.params as SubscribeMessage['payload']),
          );
        if (ctx.extra.statusSubscriptions >= opts.maxPerConnection) {
          return [
            fail(
              'LIMIT_EXCEEDED',
              `at most ${opts.maxPerConnection} status subscriptions per connection; open another connection or narrow the filters`,
              { limit: opts.maxPerConnection },
            ),
          ];
        }
        // counted here, before any await: subscribes that arrive together must not all pass the check
        ctx.extra.statusSubscriptions++;
        let released = false;
        const release = () => {
          if (!released) {
            released = true;
            ctx.extra.statusSubscriptions--;
          }
        };
        // the guard checked it against this schema in this same turn (a reload switches both at once)
        const admittedOn = status.schema.schema;
        return {
          schema: admittedOn,
          document: op.document,
          operationName: admitted.operationName,
          variableValues: admitted.variables,
          contextValue: new StatusRequest(
            op,
            admitted.coerced,
            principal.tenant,
            admitted.query,
            { variables: admitted.variables, schema: admittedOn },
            release,
          ),
        };
      } catch (err) {
        // a refused operation gets an error for its id; the connection and its other operations live on
        const errors = refusalErrors(err);
        if (errors) return errors.map(withoutHttp);
        log.error('subscribe failed', err);
        return [fail('INTERNAL_SERVER_ERROR', 'Internal server error')];
      }
    },
    subscribe: async (args) => {
      const call = args.contextValue;
      if (!(call instanceof StatusRequest)) return hive.subscribe!(args);
      const run = await status
        .run(call.op, call.variables, call.tenant, null, call.query, call.admission)
        .catch((err: unknown) => {
          call.release();
          throw err;
        });
      if (!('events' in run)) {
        call.release();
        return run;
      }
      return new StatusSubscription(run, call.release);
    },
    // the one hook that sees both an operation's result and its connection and id
    onOperation: (ctx, id, _payload, _args, result) => {
      if (result instanceof StatusSubscription) result.attach(ctx.extra.connection.nextWriter(id));
    },
  };
  const ws = serveGraphqlWs(wss, makeServer(options), (connection, request): WsExtra => ({
    connection,
    request,
    statusSubscriptions: 0,
  }));
  return { wss, close: ws.close, dispose: ws.dispose };
}

// HTTP hints (status, Retry-After) mean nothing on a WebSocket
function withoutHttp(e: GraphQLError): GraphQLError {
  if (!e.extensions.http) return e;
  const { http: _h, ...extensions } = e.extensions;
  return Object.assign(Object.create(Object.getPrototypeOf(e) as object) as GraphQLError, e, { extensions });
}

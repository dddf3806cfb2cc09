import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import type { GraphQLError } from 'graphql';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import type { ServerOptions, SubscribeMessage, Context, ConnectionInitMessage } from 'graphql-ws';
import { getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import type { Principal } from '@nvcf/auth';
import { fail } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';
import { statusOperation, type StatusOperation } from './status/operation.js';
import type { Admission, StatusService } from './status/service.js';
import { sendFramesDirectly } from './status/frames.js';
import { refusalErrors } from './guard/guard.js';
import type { FrontDoor } from './front.js';
import type { Runtime } from './runtime.js';

const log = createLogger('gateway');

type ConnectionState = { principal?: Principal; statusSubscriptions?: number };
type Payload = ConnectionInitMessage['payload'];
type WsExtra = Extra & Partial<ConnectionState>;
type WsContext = Context<Payload, WsExtra>;
interface StatusCall {
  op: StatusOperation;
  variables: Record<string, unknown>;
  tenant: string;
  extra: WsExtra;
  query: string;
  id: string;
  /** the variables as sent and the schema the guard admitted the operation on (a reload checks them) */
  admission: Admission;
}

/**
 * graphql-ws on the gateway. connection_init is authenticated before any operation is read;
 * every subscribe passes the front door's rate and guard; status subscriptions are served by
 * the replica's own fan-out, every other operation by the Hive runtime.
 */
export function attachWebSocket(
  server: Server,
  runtime: Runtime,
  front: FrontDoor,
  status: StatusService,
  opts: { maxPerConnection: number; maxPayload: number },
) {
  // one message is bounded like one HTTP body
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: opts.maxPayload });
  const hive: ServerOptions<Payload, WsExtra> = getGraphQLWSOptions(runtime, (ctx: WsContext) => ({
    req: ctx.extra.request,
    socket: ctx.extra.socket,
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
        ctx.extra.socket.close(4401, `UNAUTHENTICATED: ${(err as Error).message}`.slice(0, 120));
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
        if ((ctx.extra.statusSubscriptions ?? 0) >= opts.maxPerConnection) {
          return [
            fail(
              'LIMIT_EXCEEDED',
              `at most ${opts.maxPerConnection} status subscriptions per connection; open another connection or narrow the filters`,
              { limit: opts.maxPerConnection },
            ),
          ];
        }
        // counted here, before any await: subscribes that arrive together must not all pass the check
        ctx.extra.statusSubscriptions = (ctx.extra.statusSubscriptions ?? 0) + 1;
        // the guard checked it against this schema in this same turn (a reload switches both at once)
        const admittedOn = status.schema.schema;
        const call: StatusCall = {
          op,
          variables: admitted.coerced,
          tenant: principal.tenant,
          extra: ctx.extra,
          query: admitted.query,
          id,
          admission: { variables: admitted.variables, schema: admittedOn },
        };
        return {
          schema: admittedOn,
          document: op.document,
          operationName: admitted.operationName,
          variableValues: admitted.variables,
          contextValue: { __status: call },
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
      const call = (args.contextValue as { __status?: StatusCall } | undefined)?.__status;
      if (!call) return hive.subscribe!(args);
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          call.extra.statusSubscriptions!--;
        }
      };
      const run = await status
        .run(call.op, call.variables, call.tenant, null, call.query, call.admission)
        .catch((err: unknown) => {
          release();
          throw err;
        });
      if (!('events' in run)) {
        release();
        return run;
      }
      return sendFramesDirectly(run, call.extra.socket, call.extra.request.socket, call.id, release);
    },
  };
  const ws = useServer<Payload, ConnectionState>(options, wss);
  return { wss, dispose: () => ws.dispose() };
}

// HTTP hints (status, Retry-After) mean nothing on a WebSocket
function withoutHttp(e: GraphQLError): GraphQLError {
  if (!e.extensions.http) return e;
  const { http: _h, ...extensions } = e.extensions;
  return Object.assign(Object.create(Object.getPrototypeOf(e) as object) as GraphQLError, e, { extensions });
}

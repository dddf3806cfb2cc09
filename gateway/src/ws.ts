import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import { fail } from '@nvcf/errors';
import type { TokenVerifier } from '@nvcf/auth';
import { authenticate } from './auth.js';
import { statusOperation, type StatusOperation } from './status/operation.js';
import { publicSchema } from './status/execute.js';
import type { StatusService } from './status/service.js';
import { sendFramesDirectly } from './status/frames.js';

interface StatusCall { op: StatusOperation; variables: Record<string, unknown> | undefined; tenant: string; extra: Extra; query: string; id: string }
type Extra = { tenant?: string; socket?: any; request?: unknown; statusSubscriptions?: number; [k: string]: unknown };

/**
 * graphql-ws on the gateway: status subscriptions are served by the replica's own fan-out;
 * every other operation goes to the Hive runtime.
 */
export function attachWebSocket(server: import('node:http').Server, runtime: any, verify: TokenVerifier, status: StatusService | null, maxPerConnection: number) {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const hive = getGraphQLWSOptions(runtime, (ctx: any) => ({ req: ctx.extra?.request, socket: ctx.extra?.socket, tenant: ctx.extra?.tenant })) as any;
  const ws = useServer<Record<string, unknown>, Extra>({
    ...hive,
    onConnect: async (ctx: any) => {
      try {
        ctx.extra.tenant = await authenticate(verify, ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization);
        return true;
      } catch (err) {
        ctx.extra.socket?.close(4401, `UNAUTHENTICATED: ${(err as Error).message}`.slice(0, 120));
        return false;
      }
    },
    onSubscribe: (ctx: any, id: string, payload: any) => {
      const op = status && statusOperation(payload.query, payload.operationName);
      if (!op) return hive.onSubscribe(ctx, id, payload);
      if ((ctx.extra.statusSubscriptions ?? 0) >= maxPerConnection) {
        return [fail('LIMIT_EXCEEDED', `at most ${maxPerConnection} status subscriptions per connection; open another connection or narrow the filters`, { limit: maxPerConnection })];
      }
      // counted here, before any await: subscribes that arrive together must not all pass the check
      ctx.extra.statusSubscriptions = (ctx.extra.statusSubscriptions ?? 0) + 1;
      const call: StatusCall = { op, variables: payload.variables ?? undefined, tenant: ctx.extra.tenant!, extra: ctx.extra, query: payload.query, id };
      return { schema: publicSchema(), document: op.document, operationName: payload.operationName, variableValues: payload.variables, contextValue: { __status: call } };
    },
    subscribe: async (args: any) => {
      const call: StatusCall | undefined = args.contextValue?.__status;
      if (!call) return hive.subscribe(args);
      let released = false;
      const release = () => { if (!released) { released = true; call.extra.statusSubscriptions!--; } };
      const run = await status!.run(call.op, call.variables, call.tenant, null, call.query).catch((err) => { release(); throw err; });
      if (!('events' in run)) { release(); return run; }
      return sendFramesDirectly(run.events, call.extra.socket, call.id, release);
    },
  } as any, wss);
  return { wss, dispose: () => ws.dispose() };
}

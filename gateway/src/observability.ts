/**
 * The gateway's traces, subgraph-fetch metrics, request ids and audit lines, as engine plugins.
 * Traces: the Hive gateway's OpenTelemetry plugin (HTTP, operation, subgraph execute and
 * upstream fetch spans, W3C context injected into every subgraph call), only when tracing is on,
 * through a tracer that drops the operation document (it can carry configuration values inline).
 */
import { randomUUID } from 'node:crypto';
import { getOperationAST, OperationTypeNode, type DocumentNode, type ExecutionResult } from 'graphql';
import type { GatewayConfigContext, GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { useOpenTelemetry } from '@graphql-hive/plugin-opentelemetry';
import { createLogger } from '@nvcf/logging';
import { Attr, annotate, counter, gauge, histogram, redactingTracer, trace, tracingOn } from '@nvcf/telemetry';

const audit = createLogger('audit');

const subgraphSeconds = histogram(
  'nvcf_gateway_subgraph_request_duration_seconds',
  'Subgraph fetches made by the gateway: latency, by subgraph, operation type and outcome (ok, error).',
  ['subgraph', 'operation_type', 'outcome'],
);
const subgraphErrors = counter(
  'nvcf_gateway_subgraph_request_errors_total',
  'Subgraph fetches that failed or answered with errors, by subgraph.',
  ['subgraph'],
);

const subgraphInFlight = gauge(
  'nvcf_gateway_subgraph_requests_in_flight',
  'Subgraph executions started and not yet answered, by subgraph (identical ones of one tenant share a fetch).',
  ['subgraph'],
);

const REQUEST_ID_HEADER = 'x-request-id';

interface Ctx {
  tenant?: string;
  requestId?: string;
  request?: Request;
}

/** Ids named in a mutation's variables and in its result (keys `id` or `…Id`): never values. */
function idsOf(value: unknown, out: Record<string, string[]> = {}, depth = 0): Record<string, string[]> {
  if (depth > 4 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if ((k === 'id' || /[a-z]Id$/.test(k)) && typeof v === 'string' && v.length <= 128) {
      const list = (out[k] ??= []);
      if (!list.includes(v) && list.length < 20) list.push(v);
    } else if (typeof v === 'object') idsOf(v, out, depth + 1);
  }
  return out;
}

/** One audit line per mutation, at info: tenant, operation, request id, ids, outcome, duration. */
/** An error's extensions.code for the audit log: the registry's codes are strings; anything else as JSON. */
const codeOf = (code: unknown): string => (typeof code === 'string' ? code : JSON.stringify(code));

function auditPlugin(): GatewayPlugin {
  return {
    onContextBuilding({
      context,
      extendContext,
    }: {
      context: Ctx;
      extendContext: (c: Record<string, unknown>) => void;
    }) {
      const given = context.request?.headers.get(REQUEST_ID_HEADER);
      const requestId = given && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
      extendContext({ requestId });
      annotate({ [Attr.requestId]: requestId, ...(context.tenant ? { [Attr.tenant]: context.tenant } : {}) });
    },
    // On the fetch, not in the transport's headers: those are the in-flight deduplication key, and
    // a per-request header would make every subgraph call unique. A call shared by several
    // requests carries the id of the one that made it.
    onFetch({
      context,
      options,
      setOptions,
    }: {
      context?: Ctx;
      options: { headers?: Record<string, string> };
      setOptions: (o: { headers?: Record<string, string> }) => void;
    }) {
      if (context?.requestId)
        setOptions({ ...options, headers: { ...options.headers, [REQUEST_ID_HEADER]: context.requestId } });
    },
    onExecute({
      args,
    }: {
      args: {
        document: DocumentNode;
        operationName?: string | null;
        contextValue: Ctx;
        variableValues?: Record<string, unknown> | null;
      };
    }) {
      const op = getOperationAST(args.document, args.operationName ?? undefined);
      if (op?.operation !== OperationTypeNode.MUTATION) return;
      const started = performance.now();
      const ctx = args.contextValue;
      return {
        onExecuteDone({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) {
          const r = Symbol.asyncIterator in (result as object) ? undefined : (result as ExecutionResult);
          const codes = [
            ...new Set((r?.errors ?? []).map((e) => codeOf(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR'))),
          ];
          audit.log(
            'info',
            {
              audit: true,
              tenant: ctx.tenant,
              operation: op.name?.value ?? args.operationName ?? 'anonymous',
              request_id: ctx.requestId,
              ids: idsOf({ variables: args.variableValues ?? {}, data: r?.data ?? {} }),
              outcome: codes.length
                ? r?.data && Object.values(r.data).some((v) => v !== null)
                  ? 'partial'
                  : 'error'
                : 'ok',
              ...(codes.length ? { error_codes: codes } : {}),
              duration_ms: Math.round((performance.now() - started) * 10) / 10,
            },
            `mutation ${op.name?.value ?? 'anonymous'}`,
          );
        },
      };
    },
  } as GatewayPlugin;
}

/** Latency and errors of every subgraph fetch. */
function subgraphMetricsPlugin(): GatewayPlugin {
  return {
    onSubgraphExecute({
      subgraphName,
      executionRequest,
    }: {
      subgraphName: string;
      executionRequest: { document: DocumentNode; operationName?: string };
    }) {
      const type = getOperationAST(executionRequest.document, executionRequest.operationName)?.operation ?? 'query';
      if (type === OperationTypeNode.SUBSCRIPTION) return;
      const done = subgraphSeconds.time({ subgraph: subgraphName, operation_type: type });
      subgraphInFlight.inc({ subgraph: subgraphName });
      return ({ result }: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) => {
        subgraphInFlight.dec({ subgraph: subgraphName });
        const failed = !(Symbol.asyncIterator in (result as object)) && !!(result as ExecutionResult).errors?.length;
        done({ outcome: failed ? 'error' : 'ok' });
        if (failed) subgraphErrors.inc({ subgraph: subgraphName });
      };
    },
  } as GatewayPlugin;
}

/** The gateway's observability plugins; the OpenTelemetry one only when this process traces. */
export function observabilityPlugins(ctx: GatewayConfigContext): GatewayPlugin[] {
  const plugins: GatewayPlugin[] = [auditPlugin(), subgraphMetricsPlugin()];
  if (tracingOn()) {
    plugins.unshift(
      useOpenTelemetry({
        ...ctx,
        traces: {
          tracer: redactingTracer(trace.getTracer('gateway')),
          // the spans a trace reader needs: HTTP, the operation, its execution, subgraph calls and their fetches
          spans: {
            graphqlParse: false,
            graphqlValidate: false,
            graphqlContextBuilding: false,
            schema: false,
            initialization: false,
          },
        },
      }),
    );
  }
  return plugins;
}

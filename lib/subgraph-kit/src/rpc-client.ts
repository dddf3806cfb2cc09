import { signTenant, TENANT_HEADER, rpcAudience } from '@nvcf/auth';
import { fail, type Code } from '@nvcf/errors';
import { SpanKind, inSpan, traceHeaders } from '@nvcf/telemetry';

/**
 * How long a call may take before it counts as unavailable: a callee that is frozen or partitioned
 * away accepts the connection and never answers, and fetch alone would wait minutes for headers.
 */
const RPC_TIMEOUT_MS = 15_000;

/**
 * Calls another service's internal RPC as the given tenant; registry errors come back as
 * registry errors. The assertion is minted for that service's RPCs alone. A callee that cannot
 * be reached, does not answer in time, or answers 429/5xx without a registry error (a balancer
 * with no ready backend) fails UNAVAILABLE: an outage the caller may wait out.
 */
export function rpcClient(baseUrl: () => string, secret: string, service: string, timeoutMs = RPC_TIMEOUT_MS) {
  return async <T>(tenant: string, method: string, input: unknown): Promise<T> => {
    const url = `${baseUrl()}/internal/rpc/${method}`;
    const target = new URL(url);
    // a CLIENT span per call, its context sent along (traceparent) so the callee's span is its child
    const res = await inSpan(
      'POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'url.full': url,
          'server.address': target.hostname,
          'server.port': Number(target.port || 80),
          'rpc.system': 'nvcf-internal',
          'rpc.service': service,
          'rpc.method': method,
        },
      },
      async (span) => {
        let r: Response;
        try {
          r = await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              [TENANT_HEADER]: signTenant(secret, tenant, rpcAudience(service)),
              ...traceHeaders(),
            },
            body: JSON.stringify(input),
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (cause) {
          throw fail('UNAVAILABLE', `internal call ${method} failed: ${(cause as Error).message}; retry later`, {
            cause,
          });
        }
        span?.setAttribute('http.response.status_code', r.status);
        return r;
      },
    );
    type Answer = { result?: T; error?: { code: Code; message: string; extensions?: Record<string, unknown> } };
    const body = (await res.json().catch(() => ({}))) as Answer;
    if (!body.error && (!res.ok || !('result' in body))) {
      const retry = res.status === 429 || res.status >= 500;
      throw fail(
        retry ? 'UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
        `internal call ${method} answered HTTP ${res.status} without a result${retry ? '; retry later' : ''}`,
      );
    }
    if (body.error) {
      const { code: _c, ...meta } = body.error.extensions ?? {};
      throw fail(
        body.error.code === 'INTERNAL_SERVER_ERROR' ? 'UNAVAILABLE' : body.error.code,
        body.error.message,
        meta,
      );
    }
    return body.result as T;
  };
}
export type RpcClient = ReturnType<typeof rpcClient>;

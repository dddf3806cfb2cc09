import { signTenant, TENANT_HEADER, rpcAudience } from '@nvcf/auth';
import { fail, type Code } from '@nvcf/errors';
import { SpanKind, inSpan, traceHeaders } from '@nvcf/telemetry';

/**
 * Calls another service's internal RPC as the given tenant; registry errors come back as
 * registry errors. The assertion is minted for that service's RPCs alone.
 */
export function rpcClient(baseUrl: () => string, secret: string, service: string) {
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
    const body = (await res.json()) as {
      result?: T;
      error?: { code: Code; message: string; extensions?: Record<string, unknown> };
    };
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

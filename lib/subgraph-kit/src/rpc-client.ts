import { signTenant, TENANT_HEADER, rpcAudience } from '@nvcf/auth';
import { fail, type Code } from '@nvcf/errors';

/**
 * Calls another service's internal RPC as the given tenant; registry errors come back as
 * registry errors. The assertion is minted for that service's RPCs alone.
 */
export function rpcClient(baseUrl: () => string, secret: string, service: string) {
  return async <T>(tenant: string, method: string, input: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl()}/internal/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TENANT_HEADER]: signTenant(secret, tenant, rpcAudience(service)) },
        body: JSON.stringify(input),
      });
    } catch (cause) {
      throw fail('UNAVAILABLE', `internal call ${method} failed: ${(cause as Error).message}; retry later`);
    }
    const body = (await res.json()) as { result?: T; error?: { code: Code; message: string; extensions?: Record<string, unknown> } };
    if (body.error) {
      const { code: _c, ...meta } = body.error.extensions ?? {};
      throw fail(body.error.code === 'INTERNAL_SERVER_ERROR' ? 'UNAVAILABLE' : body.error.code, body.error.message, meta);
    }
    return body.result as T;
  };
}
export type RpcClient = ReturnType<typeof rpcClient>;

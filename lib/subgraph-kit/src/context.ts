import { verifyTenant, TENANT_HEADER, TenantAssertionError } from '@nvcf/auth';
import { fail } from '@nvcf/errors';

/** Every resolver sees the tenant the gateway vouched for, and nothing the client claimed. */
export interface TenantContext {
  tenant: string;
}

/** The tenant of an assertion minted for this audience (the subgraph's name, or its RPC audience). */
export function tenantFrom(secret: string, header: string | null | undefined, audience: string): string {
  try {
    return verifyTenant(secret, header, { audience });
  } catch (err) {
    if (err instanceof TenantAssertionError) {
      throw fail('UNAUTHENTICATED', `subgraph refused the request: ${err.message}`, {
        http: { status: 401 },
        cause: err,
      });
    }
    throw err;
  }
}

export { TENANT_HEADER };

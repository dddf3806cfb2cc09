import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header the gateway sets on every subgraph request; subgraphs trust nothing else. */
export const TENANT_HEADER = 'x-nvcf-tenant-assertion';

export class TenantAssertionError extends Error {
  override name = 'TenantAssertionError';
}

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64url');

/**
 * `<base64url(tenant)>.<issuedAtSeconds>.<hmac>`: a short-lived, gateway-signed statement
 * of the caller's tenant. Short-lived so that a leaked header is useless soon after.
 */
export function signTenant(secret: string, tenant: string, nowMs = Date.now()): string {
  const body = `${Buffer.from(tenant).toString('base64url')}.${Math.floor(nowMs / 1000)}`;
  return `${body}.${mac(secret, body)}`;
}

export function verifyTenant(secret: string, value: string | null | undefined, opts: { maxAgeSeconds?: number; nowMs?: number } = {}): string {
  const { maxAgeSeconds = 600, nowMs = Date.now() } = opts;
  if (!value) throw new TenantAssertionError('missing tenant assertion: requests must come through the gateway');
  const parts = value.split('.');
  if (parts.length !== 3) throw new TenantAssertionError('malformed tenant assertion');
  const [tenantB64, issued, sig] = parts as [string, string, string];
  const expected = Buffer.from(mac(secret, `${tenantB64}.${issued}`));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new TenantAssertionError('tenant assertion signature does not verify');
  }
  const age = nowMs / 1000 - Number(issued);
  if (!Number.isFinite(age) || age > maxAgeSeconds || age < -60) throw new TenantAssertionError('tenant assertion expired');
  return Buffer.from(tenantB64, 'base64url').toString();
}

/** Caches one assertion per tenant for a while so WebSocket connection params stay stable. */
export function tenantSigner(secret: string, refreshSeconds = 60): (tenant: string) => string {
  const cache = new Map<string, { value: string; at: number }>();
  return (tenant) => {
    const now = Date.now();
    const hit = cache.get(tenant);
    if (hit && now - hit.at < refreshSeconds * 1000) return hit.value;
    const value = signTenant(secret, tenant, now);
    cache.set(tenant, { value, at: now });
    return value;
  };
}

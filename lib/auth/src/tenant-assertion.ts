import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header the gateway sets on every subgraph request; subgraphs trust nothing else. */
export const TENANT_HEADER = 'x-nvcf-tenant-assertion';

/**
 * How long an assertion is accepted. Seconds, not minutes: a header that leaks from a log or
 * a proxy is useless soon after, and replaying it against another service fails at once
 * (the audience is signed too). Clocks of the gateway and the subgraphs may differ by a few seconds.
 */
export const ASSERTION_MAX_AGE_SECONDS = 30;

/** The audience of a service's internal RPCs: an assertion minted for its GraphQL endpoint is refused there. */
export const rpcAudience = (service: string) => `rpc:${service}`;

export class TenantAssertionError extends Error {
  override name = 'TenantAssertionError';
}

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64url');
const b64 = (s: string) => Buffer.from(s).toString('base64url');

/**
 * `<base64url(tenant)>.<base64url(audience)>.<issuedAtSeconds>.<hmac>`: a short-lived,
 * gateway-signed statement of the caller's tenant, for one service (the audience) only.
 */
export function signTenant(secret: string, tenant: string, audience: string, nowMs = Date.now()): string {
  const body = `${b64(tenant)}.${b64(audience)}.${Math.floor(nowMs / 1000)}`;
  return `${body}.${mac(secret, body)}`;
}

export function verifyTenant(
  secret: string,
  value: string | null | undefined,
  opts: { audience: string; maxAgeSeconds?: number; nowMs?: number },
): string {
  const { maxAgeSeconds = ASSERTION_MAX_AGE_SECONDS, nowMs = Date.now() } = opts;
  if (!value) throw new TenantAssertionError('missing tenant assertion: requests must come through the gateway');
  const parts = value.split('.');
  if (parts.length !== 4) throw new TenantAssertionError('malformed tenant assertion');
  const [tenantB64, audienceB64, issued, sig] = parts as [string, string, string, string];
  const expected = Buffer.from(mac(secret, `${tenantB64}.${audienceB64}.${issued}`));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new TenantAssertionError('tenant assertion signature does not verify');
  }
  const audience = Buffer.from(audienceB64, 'base64url').toString();
  if (audience !== opts.audience)
    throw new TenantAssertionError(`tenant assertion was minted for ${audience}, not ${opts.audience}`);
  const age = nowMs / 1000 - Number(issued);
  if (!Number.isFinite(age) || age > maxAgeSeconds || age < -maxAgeSeconds)
    throw new TenantAssertionError('tenant assertion expired');
  return Buffer.from(tenantB64, 'base64url').toString();
}

/**
 * Reuses one assertion per tenant and audience for a few seconds: an HMAC per subgraph call
 * adds up on hot paths, and WebSocket connection params must stay stable long enough for
 * connections to be shared. Refreshed well inside the accepted age.
 */
export function tenantSigner(secret: string, refreshSeconds = 10): (tenant: string, audience: string) => string {
  const cache = new Map<string, { value: string; at: number }>();
  return (tenant, audience) => {
    const now = Date.now();
    const k = `${audience}\u0000${tenant}`;
    const hit = cache.get(k);
    if (hit && now - hit.at < refreshSeconds * 1000) return hit.value;
    if (cache.size >= 10_000) cache.clear();
    const value = signTenant(secret, tenant, audience, now);
    cache.set(k, { value, at: now });
    return value;
  };
}

// The realistic mix's tenants: each with a dev token the gateways accept (AUTH_MODE=dev), and
// the subscribers spread over them.

export interface MixTenant {
  /** 0-based, the tenant's place in the list */
  index: number;
  token: string;
  ncaId: string;
}

/** the tenant count: enough that no one tenant's subscription rate limit paces the setup */
export const MIX_TENANTS = 50;

/** `count` tenants `nca-1`…, each with its token `t1`…; never more tenants than subscribers. */
export function mixTenants(count: number, subscribers = count): MixTenant[] {
  const n = Math.max(1, Math.min(count, subscribers));
  return Array.from({ length: n }, (_, index) => ({ index, token: `t${index + 1}`, ncaId: `nca-${index + 1}` }));
}

/** AUTH_TOKENS as the gateway reads it: `token=tenant,…` */
export const authTokens = (tenants: MixTenant[]) => tenants.map((t) => `${t.token}=${t.ncaId}`).join(',');

/** Subscriber `i`'s tenant: round robin, so every tenant gets subscribers of every selection. */
export const tenantOf = (i: number, tenants: number) => i % tenants;

/** The subscribers of each tenant, in order. */
export function subscribersByTenant(subscribers: number, tenants: number): number[][] {
  const by: number[][] = Array.from({ length: tenants }, () => []);
  for (let i = 0; i < subscribers; i++) by[tenantOf(i, tenants)].push(i);
  return by;
}

/** the tenant whose subscribers drop their subscriptions and resume from their last cursor during each step */
export const RESUMING_TENANT = 0;

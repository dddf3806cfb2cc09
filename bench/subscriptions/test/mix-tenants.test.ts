import { authTokens, mixTenants, subscribersByTenant, tenantOf, MIX_TENANTS } from '../mix/tenants.js';

describe("the realistic mix's tenants", () => {
  it('gives each of fifty tenants its own token, in the form AUTH_TOKENS reads', () => {
    const tenants = mixTenants(MIX_TENANTS, 1000);
    expect(tenants).toHaveLength(50);
    expect(new Set(tenants.map((t) => t.token)).size).toBe(50);
    expect(new Set(tenants.map((t) => t.ncaId)).size).toBe(50);
    expect(authTokens(tenants.slice(0, 2))).toBe('t1=nca-1,t2=nca-2');
    // a tenant is a NATS subject token (subjects.status)
    for (const t of tenants) expect(t.ncaId).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('never has a tenant without subscribers', () => {
    expect(mixTenants(MIX_TENANTS, 20)).toHaveLength(20);
    expect(mixTenants(MIX_TENANTS, 0)).toHaveLength(1);
  });

  it('spreads the subscribers evenly, every one to exactly one tenant', () => {
    const by = subscribersByTenant(1000, 50);
    expect(by.map((s) => s.length)).toEqual(new Array(50).fill(20));
    expect(by.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    for (const [t, mine] of by.entries()) for (const i of mine) expect(tenantOf(i, 50)).toBe(t);
    expect(subscribersByTenant(203, 50).map((s) => s.length)).toEqual([5, 5, 5, ...new Array(47).fill(4)]);
  });
});

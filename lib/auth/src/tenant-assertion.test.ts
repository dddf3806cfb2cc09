import { signTenant, verifyTenant, staticTokens, bearer, TenantAssertionError } from './index.js';

describe('tenant assertion', () => {
  const secret = 'test-secret';
  it('round-trips a tenant', () => {
    expect(verifyTenant(secret, signTenant(secret, 'nca-a'))).toBe('nca-a');
  });
  it('refuses a missing, tampered, foreign-secret or expired assertion', () => {
    expect(() => verifyTenant(secret, undefined)).toThrow('through the gateway');
    const good = signTenant(secret, 'nca-a');
    const swapped = `${Buffer.from('nca-b').toString('base64url')}.${good.split('.')[1]}.${good.split('.')[2]}`;
    expect(() => verifyTenant(secret, swapped)).toThrow(TenantAssertionError);
    expect(() => verifyTenant('other', good)).toThrow('does not verify');
    const old = signTenant(secret, 'nca-a', Date.now() - 3_600_000);
    expect(() => verifyTenant(secret, old, { maxAgeSeconds: 600 })).toThrow('expired');
  });
  it('maps dev tokens and rejects others', async () => {
    const verify = staticTokens({ 'dev-token-a': 'nca-a' });
    await expect(verify('dev-token-a')).resolves.toBe('nca-a');
    await expect(verify('nope')).rejects.toThrow('unknown bearer token');
    expect(bearer('Bearer abc')).toBe('abc');
    expect(bearer('Basic abc')).toBeUndefined();
  });
});

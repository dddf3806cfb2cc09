import {
  signTenant,
  verifyTenant,
  staticTokens,
  bearer,
  TenantAssertionError,
  tenantSigner,
  rpcAudience,
} from '../src/index.js';

describe('tenant assertion', () => {
  const secret = 'test-secret';
  it('round-trips a tenant for its audience', () => {
    expect(verifyTenant(secret, signTenant(secret, 'nca-a', 'nvcf'), { audience: 'nvcf' })).toBe('nca-a');
  });
  it('refuses a missing, tampered, foreign-secret or expired assertion', () => {
    expect(() => verifyTenant(secret, undefined, { audience: 'nvcf' })).toThrow('through the gateway');
    const good = signTenant(secret, 'nca-a', 'nvcf');
    const [, aud, iat, sig] = good.split('.');
    const swapped = `${Buffer.from('nca-b').toString('base64url')}.${aud}.${iat}.${sig}`;
    expect(() => verifyTenant(secret, swapped, { audience: 'nvcf' })).toThrow(TenantAssertionError);
    expect(() => verifyTenant('other', good, { audience: 'nvcf' })).toThrow('does not verify');
    const old = signTenant(secret, 'nca-a', 'nvcf', Date.now() - 31_000);
    expect(() => verifyTenant(secret, old, { audience: 'nvcf' })).toThrow('expired');
    expect(() =>
      verifyTenant(
        secret,
        good
          .split('.')
          .filter((_, i) => i !== 1)
          .join('.'),
        { audience: 'nvcf' },
      ),
    ).toThrow('malformed');
  });
  it('is bound to its audience: an assertion for one subgraph is refused by another and by internal RPCs', () => {
    const forNvcf = signTenant(secret, 'nca-a', 'nvcf');
    expect(() => verifyTenant(secret, forNvcf, { audience: 'icms' })).toThrow('minted for nvcf, not icms');
    expect(() => verifyTenant(secret, signTenant(secret, 'nca-a', 'icms'), { audience: rpcAudience('icms') })).toThrow(
      'not rpc:icms',
    );
    const retargeted = forNvcf.split('.');
    retargeted[1] = Buffer.from('icms').toString('base64url');
    expect(() => verifyTenant(secret, retargeted.join('.'), { audience: 'icms' })).toThrow('does not verify');
  });
  it('the signer reuses an assertion per tenant and audience, never across them', () => {
    const sign = tenantSigner(secret);
    expect(sign('nca-a', 'nvcf')).toBe(sign('nca-a', 'nvcf'));
    expect(sign('nca-a', 'nvcf')).not.toBe(sign('nca-a', 'icms'));
    expect(verifyTenant(secret, sign('nca-b', 'icms'), { audience: 'icms' })).toBe('nca-b');
  });
  it('maps dev tokens and rejects others', async () => {
    const verify = staticTokens({ 'dev-token-a': 'nca-a' });
    await expect(verify('dev-token-a')).resolves.toEqual({ tenant: 'nca-a', introspection: true });
    await expect(verify('nope')).rejects.toThrow('unknown bearer token');
    expect(bearer('Bearer abc')).toBe('abc');
    expect(bearer('Basic abc')).toBeUndefined();
  });
});

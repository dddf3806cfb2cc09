import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, exportJWK, SignJWT } from 'jose';
import { jwtTokens, AuthError } from '../src/index.js';

describe('JWT bearer tokens (production)', () => {
  it('verifies issuer, audience and signature against the JWKS; dev tokens and strangers are refused', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
      const verify = jwtTokens({ issuer: 'https://idp.example', audience: 'nvcf', jwksUrl });
      const sign = (claims: Record<string, unknown>, aud = 'nvcf') =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer('https://idp.example')
          .setAudience(aud)
          .setExpirationTime('5m')
          .sign(privateKey);
      await expect(verify(await sign({ ncaId: 'nca-a' }))).resolves.toEqual({ tenant: 'nca-a', introspection: false });
      await expect(verify(await sign({ ncaId: 'nca-a', 'nvcf:introspection': true }))).resolves.toEqual({
        tenant: 'nca-a',
        introspection: true,
      });
      await expect(verify('dev-token-a')).rejects.toThrow(AuthError);
      await expect(verify(await sign({ ncaId: 'nca-a' }, 'someone-else'))).rejects.toThrow('does not verify');
      await expect(verify(await sign({ sub: 'x' }))).rejects.toThrow("no 'ncaId' claim");
    } finally {
      server.close();
    }
  });
});

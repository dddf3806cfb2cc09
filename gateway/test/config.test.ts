import { ConfigError } from '@nvcf/config';
import { readGatewayPolicy } from '../src/config.js';

const jwt = { JWT_ISSUER: 'https://idp', JWT_AUDIENCE: 'nvcf', JWT_JWKS_URL: 'https://idp/jwks' };

describe('the gateway policy, read by the gateway service and by npm start', () => {
  it('is production by default: JWTs, introspection by claim, no IDE', () => {
    expect(() => readGatewayPolicy({})).toThrow(
      new ConfigError('JWT_ISSUER is required: AUTH_MODE=jwt needs the identity provider'),
    );
    expect(readGatewayPolicy(jwt)).toMatchObject({
      authMode: 'jwt',
      introspection: 'claim',
      graphiql: false,
      console: true,
      pageAuth: { mode: 'jwt', devTokens: undefined },
    });
  });

  it('takes development defaults from its caller, and the mode-dependent defaults follow the mode', () => {
    const dev = { mode: 'dev', devTokens: { 'dev-token': 'nca-a' } } as const;
    expect(readGatewayPolicy({}, dev)).toMatchObject({
      authMode: 'dev',
      introspection: 'authenticated',
      graphiql: true,
      pageAuth: { mode: 'dev', devTokens: { 'dev-token': 'nca-a' } },
    });
    expect(readGatewayPolicy({ AUTH_TOKENS: 't1=nca-b' }, dev).pageAuth.devTokens).toEqual({ t1: 'nca-b' });
    // the environment still decides: the development default does not hold once AUTH_MODE says jwt
    expect(readGatewayPolicy({ ...jwt, AUTH_MODE: 'jwt' }, dev)).toMatchObject({ authMode: 'jwt', graphiql: false });
  });

  it('accepts no static token unless AUTH_TOKENS names one', () => {
    expect(() => readGatewayPolicy({ AUTH_MODE: 'dev' })).toThrow(/AUTH_MODE=dev needs AUTH_TOKENS/);
  });
});

import { createRemoteJWKSet, jwtVerify } from 'jose';

export class AuthError extends Error {
  override name = 'AuthError';
}

/** Resolves a bearer token to a tenant (ncaId) or throws AuthError. */
export type TokenVerifier = (token: string) => Promise<string>;

export const DEV_TOKENS: Readonly<Record<string, string>> = { 'dev-token-a': 'nca-a', 'dev-token-b': 'nca-b' };

/** Static tokens: the embedded default only. */
export function staticTokens(tokens: Record<string, string>): TokenVerifier {
  return async (token) => {
    const tenant = tokens[token];
    if (!tenant) throw new AuthError('unknown bearer token');
    return tenant;
  };
}

export interface JwtOptions {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** claim holding the tenant; NVCF puts the account in `ncaId` */
  tenantClaim?: string;
}

/** Production: JWTs verified against issuer, audience and JWKS. Dev tokens are not JWTs and fail here. */
export function jwtTokens(opts: JwtOptions): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl));
  const claim = opts.tenantClaim ?? 'ncaId';
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: opts.issuer, audience: opts.audience });
      const tenant = payload[claim];
      if (typeof tenant !== 'string' || !tenant) throw new AuthError(`token has no '${claim}' claim`);
      return tenant;
    } catch (cause) {
      if (cause instanceof AuthError) throw cause;
      throw new AuthError('bearer token does not verify', { cause });
    }
  };
}

/** `Bearer abc` → `abc`; anything else → undefined. */
export function bearer(header: string | null | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
  return m?.[1];
}

import { createRemoteJWKSet, jwtVerify } from 'jose';

export class AuthError extends Error {
  override name = 'AuthError';
}

/** Who a verified token speaks for. */
export interface Principal {
  /** the tenant (ncaId) every operation is scoped to */
  tenant: string;
  /** may introspect the schema when the gateway restricts introspection to a claim */
  introspection: boolean;
}

/** Resolves a bearer token to its principal or throws AuthError. */
export type TokenVerifier = (token: string) => Promise<Principal>;

export const DEV_TOKENS: Readonly<Record<string, string>> = { 'dev-token-a': 'nca-a', 'dev-token-b': 'nca-b' };

/** Static tokens: the embedded default only. */
export function staticTokens(tokens: Record<string, string>): TokenVerifier {
  return async (token) => {
    const tenant = tokens[token];
    if (!tenant) throw new AuthError('unknown bearer token');
    // the embedded default is a development system: its callers may read the schema
    return { tenant, introspection: true };
  };
}

export interface JwtOptions {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** claim holding the tenant; NVCF puts the account in `ncaId` */
  tenantClaim?: string;
  /** a claim that, when `true` (or a list containing `introspection`), lets the caller introspect */
  introspectionClaim?: string;
}

/** Production: JWTs verified against issuer, audience and JWKS. Dev tokens are not JWTs and fail here. */
export function jwtTokens(opts: JwtOptions): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl));
  const claim = opts.tenantClaim ?? 'ncaId';
  const introspectionClaim = opts.introspectionClaim ?? 'nvcf:introspection';
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: opts.issuer, audience: opts.audience });
      const tenant = payload[claim];
      if (typeof tenant !== 'string' || !tenant) throw new AuthError(`token has no '${claim}' claim`);
      const grant = payload[introspectionClaim];
      return { tenant, introspection: grant === true || (Array.isArray(grant) && grant.includes('introspection')) };
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

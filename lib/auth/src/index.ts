export {
  TENANT_HEADER,
  signTenant,
  verifyTenant,
  tenantSigner,
  TenantAssertionError,
  rpcAudience,
  ASSERTION_MAX_AGE_SECONDS,
} from './tenant-assertion.js';
export { staticTokens, jwtTokens, bearer, DEV_TOKENS, AuthError } from './tokens.js';
export type { TokenVerifier, JwtOptions, Principal } from './tokens.js';
export { encodeCursor, decodeCursor, CursorError } from './cursor.js';

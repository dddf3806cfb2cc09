export { TENANT_HEADER, signTenant, verifyTenant, tenantSigner, TenantAssertionError } from './tenant-assertion.js';
export { staticTokens, jwtTokens, bearer, DEV_TOKENS, AuthError } from './tokens.js';
export type { TokenVerifier, JwtOptions } from './tokens.js';
export { encodeCursor, decodeCursor, CursorError } from './cursor.js';

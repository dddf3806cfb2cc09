import { bearer, type TokenVerifier, type Principal, AuthError } from '@nvcf/auth';
import { fail } from '@nvcf/errors';

/** The caller's principal from a bearer token, or an UNAUTHENTICATED error that says what to send. */
export async function authenticate(verify: TokenVerifier, authorization: unknown): Promise<Principal> {
  const token = typeof authorization === 'string' ? bearer(authorization) : undefined;
  if (!token) {
    throw fail(
      'UNAUTHENTICATED',
      'send Authorization: Bearer <token> (HTTP, SSE) or {"authorization": "Bearer <token>"} in connection_init (WebSocket)',
      { http: { status: 401 } },
    );
  }
  try {
    return await verify(token);
  } catch (err) {
    if (err instanceof AuthError)
      throw fail('UNAUTHENTICATED', `the bearer token was refused: ${err.message}`, {
        http: { status: 401 },
        cause: err,
      });
    throw err;
  }
}

import { readFileSync } from 'node:fs';
import { GraphQLError } from 'graphql';
import { renderErrorDocs, Codes, fail, maskError } from './index.js';

describe('error registry', () => {
  it('docs/errors.md is generated from the registry (run npm run errors:docs)', () => {
    const committed = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderErrorDocs());
  });

  it('contains every code the public contract names', () => {
    for (const c of ['BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'UPDATE_NOT_ALLOWED', 'REDEPLOY_REQUIRED', 'INVALID_MANIFEST', 'CURSOR_EXPIRED']) {
      expect(Object.keys(Codes)).toContain(c);
    }
  });

  it('masks unregistered errors and strips stack traces from registered ones', () => {
    const logged: unknown[] = [];
    const masked = maskError({ message: 'db password wrong', extensions: {} }, (e) => logged.push(e), new Error('db password wrong'));
    expect(masked.message).toBe('Internal server error');
    expect((masked.extensions as { code?: string })?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(logged).toHaveLength(1);
    const kept = maskError({ message: 'x', extensions: { code: 'CONFLICT', stacktrace: ['a'] } });
    expect(kept.extensions).toEqual({ code: 'CONFLICT' });
    expect(fail('NOT_FOUND', 'gone').extensions.code).toBe('NOT_FOUND');
    const request = maskError(new GraphQLError('Variable "$id" of required type "ID!" was not provided.'));
    expect(request.extensions.code).toBe('BAD_USER_INPUT');
    expect(request.message).toContain('$id');
    const wrapped = maskError(new GraphQLError('boom', { originalError: new Error('secret detail') }));
    expect(wrapped.message).toBe('Internal server error');
  });
});

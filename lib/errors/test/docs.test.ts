import { readFileSync } from 'node:fs';
import { GraphQLError } from 'graphql';
import { renderErrorDocs, Codes, fail, maskError } from '../src/index.js';

describe('error registry', () => {
  it('docs/errors.md is generated from the registry (run npm run errors:docs)', () => {
    const committed = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderErrorDocs());
  });

  it('contains every code the public contract names', () => {
    for (const c of [
      'BAD_USER_INPUT',
      'UNAUTHENTICATED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'UPDATE_NOT_ALLOWED',
      'REDEPLOY_REQUIRED',
      'INVALID_MANIFEST',
      'CURSOR_EXPIRED',
    ]) {
      expect(Object.keys(Codes)).toContain(c);
    }
  });

  it('masks unregistered errors and strips stack traces from registered ones', () => {
    const logged: unknown[] = [];
    const masked = maskError(
      { message: 'db password wrong', extensions: {} },
      (e) => logged.push(e),
      new Error('db password wrong'),
    );
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

  it('keeps where a subgraph error happened and never blames the client for a service fault', () => {
    const logged: unknown[] = [];
    const located = { line: 1, column: 3 };
    const registeredFromSubgraph = maskError(
      {
        message: 'GPU specification x does not exist',
        path: ['rollbackGpuSpecification'],
        locations: [located],
        extensions: { code: 'NOT_FOUND', serviceName: 'nvcf' },
      },
      (e) => logged.push(e),
      undefined,
      { downstream: true },
    );
    expect(registeredFromSubgraph.toJSON()).toEqual({
      message: 'GPU specification x does not exist',
      path: ['rollbackGpuSpecification'],
      locations: [located],
      extensions: { code: 'NOT_FOUND' },
    });
    const unknown = maskError(
      {
        message: 'db password is hunter2',
        path: ['clusters', 0, 'name'],
        locations: [located],
        extensions: { code: 'WEIRD', serviceName: 'icms' },
      },
      (e) => logged.push(e),
      undefined,
      { downstream: true },
    );
    expect(unknown.toJSON()).toEqual({
      message: 'service "icms" failed to resolve this field; retry later (the cause is in its log)',
      path: ['clusters', 0, 'name'],
      locations: [located],
      extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: 'icms' },
    });
    const unreachable = maskError(
      {
        message: 'connect ECONNREFUSED 10.0.0.7:4001',
        path: ['clusters'],
        extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: 'icms' },
      },
      (e) => logged.push(e),
      undefined,
      { downstream: true },
    );
    expect(unreachable.message).not.toContain('10.0.0.7');
    expect(logged).toHaveLength(2);
    // the federation audit's subgraphs are named "a", "b"…: the name reads as one, never "the a service"
    const named = (serviceName?: string) =>
      maskError(
        { message: 'x', path: ['f'], extensions: serviceName === undefined ? {} : { serviceName } },
        () => {},
        undefined,
        { downstream: true },
      ).message;
    expect(named('a')).toBe('service "a" failed to resolve this field; retry later (the cause is in its log)');
    expect(named()).toBe('a service failed to resolve this field; retry later (the cause is in its log)');
    expect(named('')).toBe('a service failed to resolve this field; retry later (the cause is in its log)');
    // the subgraph's own view: an error without a registry code is masked, whatever its path
    expect(maskError({ message: 'boom', path: ['x'], extensions: {} }).extensions).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
    });
    expect(
      maskError({ message: 'boom', extensions: {} }, () => {}, undefined, { markUnexpected: true }).extensions,
    ).toEqual({ code: 'INTERNAL_SERVER_ERROR', unexpected: true });
    expect(
      maskError(new GraphQLError('Cannot query field "x"', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }))
        .extensions.code,
    ).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

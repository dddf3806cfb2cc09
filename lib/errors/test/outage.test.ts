import { GraphQLError } from 'graphql';
import { fail } from '../src/fail.js';
import { isOutage } from '../src/outage.js';

const withCode = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9042`), { code });
const named = (name: string) => Object.assign(new Error(name), { name });

describe('isOutage: a dependency unavailable now, or the work itself wrong', () => {
  it.each([
    ['a registry UNAVAILABLE error (the store, ICMS over RPC)', fail('UNAVAILABLE', 'retry later')],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      "fetch's failure, its cause a refused connection",
      new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }),
    ],
    ['undici giving up on connecting', withCode('UND_ERR_CONNECT_TIMEOUT')],
    ["AbortSignal.timeout's TimeoutError", named('TimeoutError')],
    ['a bus publish that gave up through an outage', named('PublishFailed')],
    ['an HTTP 503 answer', Object.assign(new Error('Service Unavailable'), { statusCode: 503 })],
    ['a 429 throttle', Object.assign(new Error('Too Many Requests'), { status: 429 })],
    [
      'an outage wrapped twice',
      new Error('record failed', { cause: new Error('write', { cause: withCode('EPIPE') }) }),
    ],
    [
      'a GraphQL error wrapping one',
      new GraphQLError('x', { originalError: fail('UNAVAILABLE', 'the database is unavailable right now') }),
    ],
    ['every address of a connect refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ETIMEDOUT')])],
  ])('%s is an outage', (_what, err) => {
    expect(isOutage(err)).toBe(true);
  });

  it.each([
    ['a handler bug', new TypeError("Cannot read properties of undefined (reading 'instanceId')")],
    ['a registry error about the input', fail('BAD_USER_INPUT', 'maxInstances must be at least 1')],
    ['a GraphQL error without a code', new GraphQLError('Internal server error')],
    ['an HTTP 400 answer', Object.assign(new Error('Bad Request'), { statusCode: 400 })],
    ['a missing file', withCode('ENOENT')],
    ['NATS without a JetStream (or a stream) to answer', named('JetStreamNotEnabled')],
    ['a string thrown', 'ECONNREFUSED'],
    ['nothing', undefined],
    [
      'a connect where one address answered with an error of its own',
      new AggregateError([withCode('ECONNREFUSED'), new Error('bad certificate')]),
    ],
  ])('%s is not', (_what, err) => {
    expect(isOutage(err)).toBe(false);
  });

  it('ends on a cycle of causes', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isOutage(a)).toBe(false);
  });
});

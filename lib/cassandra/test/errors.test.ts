import { GraphQLError } from 'graphql';
import { errors, types } from 'cassandra-driver';
import { CassandraUnavailable, unavailableFrom } from '../src/index.js';

const R = types.responseErrorCodes;
// typed abstract, but the driver itself throws plain DriverErrors (a closed socket, for one)
const DriverError = errors.DriverError as unknown as new (message: string) => Error;
const socketClosed = Object.assign(new DriverError('Socket was closed'), { isSocketError: true });

describe('driver errors as UNAVAILABLE', () => {
  it.each([
    [
      'no host reachable',
      new errors.NoHostAvailableError({ '127.0.0.1:9042': new Error('ECONNREFUSED') }),
      /unavailable right now; retry/,
    ],
    [
      'a node refusing (unavailable, overloaded, bootstrapping)',
      new errors.ResponseError(R.overloaded, 'Overloaded'),
      /unavailable right now; retry/,
    ],
    [
      'a client-side timeout',
      new errors.OperationTimedOutError('timed out', '127.0.0.1:9042'),
      /may or may not have been stored/,
    ],
    [
      'a coordinator write timeout',
      new errors.ResponseError(R.writeTimeout, 'Operation timed out'),
      /may or may not have been stored/,
    ],
    ['a connection lost with the request on it', socketClosed, /may or may not have been stored/],
  ])('%s: a registry error that says what to do, without addresses or driver names', (_what, err, message) => {
    const e = unavailableFrom(err)!;
    expect(e).toBeInstanceOf(CassandraUnavailable);
    expect(e).toBeInstanceOf(GraphQLError);
    expect(e.extensions.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(message);
    expect(e.message).not.toMatch(/127\.0\.0\.1|Error|Socket/);
    expect(e.cause).toBe(err);
  });

  it('leaves everything else alone: a bad statement is a bug, not an outage', () => {
    expect(unavailableFrom(new errors.ResponseError(R.syntaxError, 'line 1: no viable alternative'))).toBeNull();
    expect(unavailableFrom(new errors.ResponseError(R.invalid, 'Undefined column name'))).toBeNull();
    expect(unavailableFrom(new DriverError('Socket was closed'))).toBeNull(); // not a socket error after all
    expect(unavailableFrom(new TypeError('x is undefined'))).toBeNull();
  });
});

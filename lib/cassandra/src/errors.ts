/** Failures of the Cassandra layer; each names itself and keeps the driver error as `cause`. */
import { GraphQLError } from 'graphql';
import { errors as driverErrors, types } from 'cassandra-driver';
import type { Code } from '@nvcf/errors';

const UNAVAILABLE: Code = 'UNAVAILABLE';

/**
 * The store cannot be reached or did not answer. A registry error (`UNAVAILABLE`), so that a
 * request failing on it tells the client to retry instead of reporting an internal error,
 * and a bus handler failing on it is redelivered later.
 */
export class CassandraUnavailable extends GraphQLError {
  override name = 'CassandraUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, {
      extensions: { code: UNAVAILABLE },
      originalError: options?.cause instanceof Error ? options.cause : undefined,
    });
    this.cause = options?.cause;
  }
}

const { responseErrorCodes: R } = types;
const REFUSED = new Set<number>([R.unavailableException, R.overloaded, R.isBootstrapping]);
const UNDECIDED = new Set<number>([R.readTimeout, R.writeTimeout, R.readFailure, R.writeFailure]);

// what the client reads: no addresses, no driver names; what to do next
const UNREACHABLE = 'the database is unavailable right now; retry in a few seconds';
const TIMED_OUT =
  'the database did not answer in time, so a change may or may not have been stored; read the object again, then retry';

/**
 * A driver error that means "the database is down, overloaded or too slow right now" as
 * CassandraUnavailable; null for anything else (a bad statement stays an internal error).
 */
export function unavailableFrom(err: unknown): CassandraUnavailable | null {
  if (err instanceof CassandraUnavailable) return err;
  if (err instanceof driverErrors.NoHostAvailableError || err instanceof driverErrors.BusyConnectionError)
    return new CassandraUnavailable(UNREACHABLE, { cause: err });
  if (err instanceof driverErrors.OperationTimedOutError) return new CassandraUnavailable(TIMED_OUT, { cause: err });
  // a connection lost with the request on it: it may have been executed
  if (err instanceof driverErrors.DriverError && (err as { isSocketError?: boolean }).isSocketError)
    return new CassandraUnavailable(TIMED_OUT, { cause: err });
  if (err instanceof driverErrors.ResponseError) {
    if (REFUSED.has(err.code)) return new CassandraUnavailable(UNREACHABLE, { cause: err });
    if (UNDECIDED.has(err.code)) return new CassandraUnavailable(TIMED_OUT, { cause: err });
  }
  return null;
}

/** A migrations folder that cannot be run as is (bad file name, duplicate version). */
export class MigrationFileError extends Error {
  override name = 'MigrationFileError';
}

export type RefusalReason =
  'dirty' | 'unexpected-version' | 'backward' | 'unknown-target' | 'unknown-keyspace' | 'concurrent';

/** The ledger is not in the state the operation requires; nothing was changed. */
export class MigrationRefused extends Error {
  override name = 'MigrationRefused';
  constructor(
    readonly reason: RefusalReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A statement failed; the ledger stays dirty at `version` until an operator repairs it. */
export class MigrationFailed extends Error {
  override name = 'MigrationFailed';
  constructor(
    readonly keyspace: string,
    readonly version: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

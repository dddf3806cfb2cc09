/** Failures of the Cassandra layer; each names itself and keeps the driver error as `cause`. */

export class CassandraUnavailable extends Error {
  override name = 'CassandraUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Several compare-and-set rounds lost in a row: callers may retry, the row is unchanged by us. */
export class LwtContention extends Error {
  override name = 'LwtContention';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A migrations folder that cannot be run as is (bad file name, duplicate version). */
export class MigrationFileError extends Error {
  override name = 'MigrationFileError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export type RefusalReason = 'dirty' | 'unexpected-version' | 'backward' | 'unknown-target' | 'unknown-keyspace' | 'concurrent';

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

export { createCassandraClient, keyspaceName } from './client.js';
export type { CassandraClient, CassandraClientOptions } from './client.js';
export { eachRow, selectAll, selectByKeys } from './paging.js';
export type { Row, Params } from './paging.js';
export { applied } from './lwt.js';
export { coalescedWriter, COALESCE_DEFAULTS } from './coalesce.js';
export type { CoalescedWriter, CoalescedWriterOptions } from './coalesce.js';
export { WrittenKeys } from './written-keys.js';
export { createMigrator } from './migrations/runner.js';
export { parseCopyRows } from './migrations/copy.js';
export type { CopyRows } from './migrations/copy.js';
export type { AppliedMigration, KeyspaceStatus, Migrator, MigratorOptions } from './migrations/runner.js';
export { loadMigrations, splitStatements } from './migrations/files.js';
export type { Migration } from './migrations/files.js';
export { LOCAL_REPLICATION, parseReplication, replicationCql } from './migrations/replication.js';
export type { Replication } from './migrations/replication.js';
export {
  CassandraUnavailable,
  unavailableFrom,
  MigrationFailed,
  MigrationFileError,
  MigrationRefused,
} from './errors.js';
export type { RefusalReason } from './errors.js';
export { types } from 'cassandra-driver';
export type { Client } from 'cassandra-driver';

export { createMemoryStatusStore } from './memory.js';
export { createCassandraStatusStore } from './cassandra.js';
export type { CassandraStatusStoreOptions } from './cassandra.js';
export type { StatusStore, InstanceStatus, StatusFilter } from './types.js';

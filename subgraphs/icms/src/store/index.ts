export { createMemoryIcmsStore } from './memory.js';
export { createCassandraIcmsStore } from './cassandra.js';
export type { CassandraIcmsStoreOptions } from './cassandra.js';
export type { IcmsStore } from './types.js';

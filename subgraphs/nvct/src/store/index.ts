export { createMemoryTaskStore } from './memory.js';
export { createCassandraTaskStore } from './cassandra.js';
export type { CassandraTaskStoreOptions } from './cassandra.js';
export type { TaskStore, ListQuery } from './types.js';

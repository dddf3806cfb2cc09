export { createMemoryNvcfStore } from './memory.js';
export { createCassandraNvcfStore } from './cassandra.js';
export type { CassandraNvcfStoreOptions } from './cassandra.js';
export type { NvcfStore } from './types.js';

export { createStatusServer } from './server.js';
export type { StatusServerOptions } from './server.js';
export { createMemoryStatusStore, createCassandraStatusStore } from './store/index.js';
export type { StatusStore, InstanceStatus, CassandraStatusStoreOptions } from './store/index.js';

export { createNvctServer, buildNvctSchema } from './server.js';
export type { NvctServerOptions } from './server.js';
export { createMemoryTaskStore, createCassandraTaskStore } from './store/index.js';
export type { TaskStore, CassandraTaskStoreOptions } from './store/index.js';
export { durationMs } from './duration.js';
export type { Clock } from './tasks.js';
export type * from './model.js';

export { createNvctServer, buildNvctSchema } from './server.js';
export type { NvctServerOptions } from './server.js';
export { createMemoryTaskStore, createCassandraTaskStore } from './store/index.js';
export type { TaskStore, CassandraTaskStoreOptions } from './store/index.js';
export { durationMs } from './duration.js';
export { sweepDeadlines, overdue } from './deadlines.js';
export { transition, advance } from './lifecycle.js';
export type { Clock, TaskDeps, Decision } from './lifecycle.js';
export type * from './model.js';

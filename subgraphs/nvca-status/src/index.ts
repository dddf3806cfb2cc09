export { createStatusServer } from './server.js';
export type { StatusServerOptions } from './server.js';
export { createMemoryStatusStore } from './store/index.js';
export type { StatusStore, InstanceStatus } from './store/index.js';

export { createMemoryStatusStore } from './memory.js';
export type { StatusStore, InstanceStatus, StatusFilter } from './types.js';

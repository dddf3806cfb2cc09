export { createMemoryIcmsStore } from './memory.js';
export type { IcmsStore } from './types.js';

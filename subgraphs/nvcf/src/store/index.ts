export { createMemoryNvcfStore } from './memory.js';
export type { NvcfStore } from './types.js';

export { startSystem, memoryBackends, statusConsumers, taskReportConsumer } from './system.js';
export type { System, SystemOptions, Backends } from './system.js';
export { demoClusters } from './seed.js';

export { readSecret } from './secret.js';
export { RequestMetrics, processMetrics } from './metrics.js';
export { runMain } from './main.js';
export type { Started } from './main.js';
export {
  readServiceConfig,
  readBusConfig,
  readCassandraConfig,
  readInternalSecret,
  readCursorSecret,
  url,
} from './config.js';
export { runSubgraphMain } from './subgraph-main.js';
export type { SubgraphConfig } from './subgraph-main.js';
export { connectBus, connectCassandra, startupDeadline, untilAvailable, StartupTimeout } from './startup.js';

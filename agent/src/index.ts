export { startAgent } from './agent.js';
export type { Agent, AgentOptions } from './agent.js';
export { createSimulatedCluster } from './drivers/simulated.js';
export type { SimulatedClusterOptions, SimulatedCluster, SimMiniService } from './drivers/simulated.js';
export type { SimObject } from './drivers/sim-operator.js';
export { TemporaryFailure, PermanentFailure, MissingCrds, RemovalStuck } from './driver.js';
export type { ClusterDriver, DesiredInstance, ObservedInstance } from './driver.js';
export { backoffDelay, defaultBackoff } from './backoff.js';
export { RESTARTED, AgentStopped } from './tasks.js';
// the Kubernetes driver is `@nvcf/agent/kubernetes`: its client is slow to import, and only that driver needs it

// the production topology on one machine (npm run start:prod, the rolling-upgrade tests)
export { startTopology } from './topology.js';
export type { Topology, TopologyOptions } from './topology.js';
export { startBalancer } from './balancer.js';
export type { Balancer } from './balancer.js';
export { spawnService, startService, freePort, PortInUseError, serviceCommand, packageDir, ROOT } from './processes.js';
export type { ServiceProcess, ServiceKind, RunMode, SpawnOptions } from './processes.js';
export { readEnvFile } from './env-file.js';
export { MIGRATIONS_DIR } from './real.js';

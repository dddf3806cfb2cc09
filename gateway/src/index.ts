export { startGateway } from './server.js';
export type { GatewayOptions, RunningGateway } from './server.js';

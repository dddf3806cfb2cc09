// `@nvcf/gateway/status`: a server that delivers status events without the rest of the gateway
// (the delivery benchmark measures the fan-out this way) builds on these alone.
export { StatusService } from './service.js';
export type { StatusServiceOptions } from './service.js';
export { statusOperation } from './operation.js';
export type { StatusOperation } from './operation.js';
export { StatusSubscription } from './subscription.js';
export { Connection } from '../transport/connection.js';
export type { NextWriter } from '../transport/connection.js';

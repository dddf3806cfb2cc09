export { httpClient, ok, errorCode } from './client.js';
export type { HttpClient, GraphQLResponse } from './client.js';
export { wsSubscribe, sseSubscribe } from './subscriptions.js';
export type { Collected } from './subscriptions.js';
export { helmFunction, deployHelm, l40s } from './fixtures.js';
export { gauge, subscriptionsOpen } from './metrics.js';
export { readSpec, versionStatus, deployedHelm, waitRevision, submit } from './rollout.js';
export type { Spec } from './rollout.js';
export { describeReal, realEnv, startRealSystem } from './real.js';

export { startSubgraph } from './server.js';
export type { SubgraphOptions, RunningSubgraph, RpcHandler } from './server.js';
export { tenantFrom, TENANT_HEADER } from './context.js';
export type { TenantContext } from './context.js';
export { rpcClient } from './rpc-client.js';
export type { RpcClient } from './rpc-client.js';
export { listen, closeServer } from './listen.js';
export { readBody, sendJson, graphqlError, BodyTooLarge } from './http.js';
export { JSONScalar, DateTimeScalar } from './scalars.js';

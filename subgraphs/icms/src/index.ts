export { createIcmsServer, buildIcmsSchema } from './server.js';
export { readClusters } from './clusters-file.js';
export type { IcmsServerOptions } from './server.js';
export { createMemoryIcmsStore, createCassandraIcmsStore } from './store/index.js';
export type { IcmsStore, CassandraIcmsStoreOptions } from './store/index.js';
export type { ClusterRecord, InstanceRecord, UpdateActionRecord } from './model.js';
export { TENANCY_REFUSAL } from './placement.js';

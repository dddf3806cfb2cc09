export { createNvcfServer, buildNvcfSchema } from './server.js';
export type { NvcfServerOptions } from './server.js';
export { createMemoryNvcfStore, createCassandraNvcfStore } from './store/index.js';
export type { NvcfStore, CassandraNvcfStoreOptions } from './store/index.js';
export { httpIcmsClient } from './icms-client.js';
export type { IcmsClient } from './icms-client.js';
export type * from './model.js';

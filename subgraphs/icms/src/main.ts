import { runSubgraphMain } from '@nvcf/service';
import { readClusters } from './clusters-file.js';
import { createIcmsServer } from './server.js';
import { createCassandraIcmsStore } from './store/index.js';

runSubgraphMain(
  'icms',
  { port: 4002 },
  (env) => ({
    clusters: readClusters(env),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createIcmsServer({
      store: createCassandraIcmsStore(cassandra, { keyspace: keyspace('icms_api') }),
      bus,
      secret: c.secret,
      clusters: c.clusters,
      port: c.port,
      host: c.host,
      consumerName: c.consumerName,
      consumerStart: c.consumerStart,
    }),
);

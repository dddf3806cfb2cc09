import { str } from '@nvcf/config';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { runSubgraphMain } from '@nvcf/service';
import { createNvctServer } from './server.js';
import { createCassandraTaskStore } from './store/index.js';

runSubgraphMain(
  'nvct',
  { port: 4004 },
  (env) => ({
    registryFile: str(env, 'OPERATOR_REGISTRY_FILE', defaultRegistryPath()),
  }),
  async ({ cassandra, keyspace, config: c }) =>
    createNvctServer({
      store: createCassandraTaskStore(cassandra, { keyspace: keyspace('nvct_api') }),
      registry: loadRegistry(c.registryFile),
      secret: c.secret,
      port: c.port,
      host: c.host,
    }),
);

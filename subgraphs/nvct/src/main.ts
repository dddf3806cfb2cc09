import { int, str } from '@nvcf/config';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { runSubgraphMain } from '@nvcf/service';
import { createNvctServer } from './server.js';
import { createCassandraTaskStore } from './store/index.js';

runSubgraphMain(
  'nvct',
  { port: 4004 },
  (env) => ({
    registryFile: str(env, 'OPERATOR_REGISTRY_FILE', defaultRegistryPath()),
    deadlineSweepMs: int(env, 'TASK_DEADLINE_SWEEP_MS', 1000, { min: 100 }),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createNvctServer({
      store: createCassandraTaskStore(cassandra, { keyspace: keyspace('nvct_api') }),
      bus,
      registry: loadRegistry(c.registryFile),
      deadlineSweepMs: c.deadlineSweepMs,
      secret: c.secret,
      port: c.port,
      host: c.host,
    }),
);

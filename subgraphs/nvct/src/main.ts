import { int, str } from '@nvcf/config';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { runSubgraphMain, url } from '@nvcf/service';
import { createNvctServer } from './server.js';
import { httpPlaceTask } from './dispatch.js';
import { createCassandraTaskStore } from './store/index.js';

runSubgraphMain(
  'nvct',
  { port: 4004 },
  (env) => ({
    registryFile: str(env, 'OPERATOR_REGISTRY_FILE', defaultRegistryPath()),
    icmsUrl: url(env, 'ICMS_URL', "the ICMS subgraph's base URL, e.g. http://icms:4002"),
    deadlineSweepMs: int(env, 'TASK_DEADLINE_SWEEP_MS', 1000, { min: 100 }),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createNvctServer({
      store: createCassandraTaskStore(cassandra, { keyspace: keyspace('nvct_api') }),
      bus,
      registry: loadRegistry(c.registryFile),
      deadlineSweepMs: c.deadlineSweepMs,
      placeTask: httpPlaceTask(() => c.icmsUrl, c.secret),
      consumerName: c.consumerName,
      consumerStart: c.consumerStart,
      secret: c.secret,
      port: c.port,
      host: c.host,
    }),
);

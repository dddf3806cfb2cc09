import { int, str } from '@nvcf/config';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { runSubgraphMain, url } from '@nvcf/service';
import { createNvcfServer } from './server.js';
import { createCassandraNvcfStore } from './store/index.js';
import { httpIcmsClient } from './icms-client.js';

runSubgraphMain(
  'nvcf',
  { port: 4001 },
  (env) => ({
    icmsUrl: url(env, 'ICMS_URL', "the ICMS subgraph's base URL, e.g. http://icms:4002"),
    registryFile: str(env, 'OPERATOR_REGISTRY_FILE', defaultRegistryPath()),
    revisionDeadlineMs: int(env, 'REVISION_DEADLINE_MS', 600_000, { min: 1000 }),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createNvcfServer({
      store: createCassandraNvcfStore(cassandra, { keyspace: keyspace('nvcf_api') }),
      bus,
      registry: loadRegistry(c.registryFile),
      secret: c.secret,
      icms: httpIcmsClient(() => c.icmsUrl, c.secret),
      port: c.port,
      host: c.host,
      revisionDeadlineMs: c.revisionDeadlineMs,
      consumerName: c.consumerName,
      consumerStart: c.consumerStart,
    }),
);

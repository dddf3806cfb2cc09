import { runSubgraphMain, readCursorSecret } from '@nvcf/service';
import { createStatusServer } from './server.js';
import { createCassandraStatusStore } from './store/index.js';

runSubgraphMain(
  'nvca-status',
  { port: 4003 },
  (env) => ({
    cursorSecret: readCursorSecret(env),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createStatusServer({
      store: createCassandraStatusStore(cassandra, { keyspace: keyspace('nvca_status') }),
      bus,
      secret: c.secret,
      cursorSecret: c.cursorSecret,
      port: c.port,
      host: c.host,
      consumerName: c.consumerName,
      consumerStart: c.consumerStart,
    }),
);

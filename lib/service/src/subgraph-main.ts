import { oneOf, str, type Env } from '@nvcf/config';
import { setLogLevel } from '@nvcf/logging';
import type { Bus } from '@nvcf/bus';
import type { CassandraClient } from '@nvcf/cassandra';
import { DisposalStack } from '@nvcf/lifecycle';
import { runMain } from './main.js';
import { connectBus, connectCassandra, startupDeadline, untilAvailable } from './startup.js';
import { readServiceConfig, readBusConfig, readCassandraConfig, readInternalSecret } from './config.js';

const readCommon = (env: Env, name: string, port: number) => ({
  ...readServiceConfig(env, { port }),
  ...readBusConfig(env),
  cassandra: readCassandraConfig(env),
  secret: readInternalSecret(env),
  // every subgraph reads the status stream with a durable of its own (docs/configuration.md)
  consumerName: str(env, 'STATUS_CONSUMER_NAME', name),
  consumerStart: oneOf(env, 'STATUS_CONSUMER_START', ['first', 'new'], 'first'),
});
export type SubgraphConfig<C> = ReturnType<typeof readCommon> & C;

/**
 * The main of a subgraph service: its configuration (the common part and its own), a NATS
 * bus with this release's streams, a Cassandra session, the server; on SIGTERM the server
 * drains (HTTP and its consumers), then the connections close.
 */
export function runSubgraphMain<C>(
  name: string,
  defaults: { port: number },
  readOwn: (env: Env) => C,
  build: (deps: {
    bus: Bus;
    cassandra: CassandraClient;
    keyspace: (base: string) => string;
    config: SubgraphConfig<C>;
  }) => Promise<{ graphqlUrl: string; drain(graceMs: number): Promise<void> }>,
) {
  runMain(
    name,
    () => ({ ...readCommon(process.env, name, defaults.port), ...readOwn(process.env) }),
    async (config) => {
      setLogLevel(config.logLevel);
      const stack = new DisposalStack();
      const deadline = startupDeadline(config);
      try {
        const bus = stack.use(await connectBus(config, name, deadline));
        const cassandra = stack.use(await connectCassandra(config, deadline));
        // a server's first reads (its seed, its durables) may meet a ring or JetStream still settling:
        // a failed build releases what it started, so it is tried again until the startup deadline
        const server = await untilAvailable(
          `${name}'s start`,
          () => build({ bus, cassandra, keyspace: (base) => `${base}${config.cassandra.keyspaceSuffix}`, config }),
          deadline,
        );
        const connections = stack.move();
        return {
          describe: server.graphqlUrl,
          drain: async () => {
            try {
              await server.drain(config.drainGraceMs);
            } finally {
              await connections.disposeAsync();
            }
          },
        };
      } catch (err) {
        await stack.disposeAsync();
        throw err;
      }
    },
    { graceMs: (c) => c.drainGraceMs },
  );
}

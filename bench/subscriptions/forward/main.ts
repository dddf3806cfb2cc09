// The `forward` target of bench:subscriptions in a process of its own: `npm start`'s control
// plane on NATS and Cassandra, with the forwarding gateway beside it in the same process, so the
// two control-plane targets are measured alike (queries and mutations go to the control plane's
// own gateway, subscriptions to the forwarding one). Needs npm run services:up.
import { readServicesEnv } from '@nvcf/test/services';
import { readBusConfig, readCassandraConfig } from '@nvcf/service';
import { startSystem } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { int, oneOf } from '@nvcf/config';
import { levels, setLogLevel } from '@nvcf/logging';
import { startForwardingGateway } from './gateway.js';

const env = { ...readServicesEnv(), ...process.env };
setLogLevel(oneOf(env, 'LOG_LEVEL', levels, 'info'));
const { natsUrl, streamReplicas } = readBusConfig(env);
const cassandra = readCassandraConfig(env);
const backends = await realBackends({ natsUrl, streamReplicas, ...cassandra });
const verify = staticTokens(DEV_TOKENS);
const system = await startSystem({
  backends,
  verify,
  metricsPort: 0,
  sim: {
    startDelayMs: int(env, 'SIM_START_DELAY_MS', 1500, { min: 0 }),
    updateDelayMs: int(env, 'SIM_UPDATE_DELAY_MS', 1500, { min: 0 }),
  },
  // one tenant drives all the load
  gatewayLimits: { operationsPerSecond: 0, subscriptionsPerSecond: 0 },
  deploymentSuffix: cassandra.keyspaceSuffix || undefined,
  statusConsumerStart: oneOf(env, 'STATUS_CONSUMER_START', ['first', 'new'] as const, 'first'),
});
const forward = await startForwardingGateway({ subgraphs: system.subgraphs, secret: system.secret, verify });
console.log(`forward: control plane at ${system.url}, subscriptions at ${forward.wsUrl}`);
const stop = async () => {
  await forward.dispose();
  await system.dispose();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

import { parseReplication, type Replication } from '@nvcf/cassandra';
import { ConfigError, int, oneOf, str, type Env } from '@nvcf/config';
import { DEV_TOKENS } from '@nvcf/auth';
import { readBusConfig, readCassandraConfig } from '@nvcf/service';
import { levels } from '@nvcf/logging';
import { readGatewayPolicy } from '@nvcf/gateway';

/** Everything `npm start` reads from the environment, validated once. */
export function readConfig(env: Env) {
  return {
    port: int(env, 'PORT', 4000, { min: 0, max: 65535 }),
    host: str(env, 'HOST', '127.0.0.1'),
    backend: oneOf(env, 'NVCF_BACKEND', ['memory', 'real'] as const, 'memory'),
    clusterDriver: oneOf(env, 'CLUSTER_DRIVER', ['simulated', 'kubernetes'] as const, 'simulated'),
    startDelayMs: int(env, 'SIM_START_DELAY_MS', 1500, { min: 0, max: 600_000 }),
    updateDelayMs: int(env, 'SIM_UPDATE_DELAY_MS', 1500, { min: 0, max: 600_000 }),
    revisionDeadlineMs: int(env, 'REVISION_DEADLINE_MS', 600_000, { min: 1000 }),
    secret: env.NVCF_INTERNAL_SECRET || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', levels, 'info'),
    metricsPort: int(env, 'METRICS_PORT', 9464, { min: 0, max: 65535 }),
    // the gateway's own reader, with a development default: AUTH_MODE=dev and the development tokens
    gateway: readGatewayPolicy(env, { mode: 'dev', devTokens: DEV_TOKENS }),
  };
}

/** Where the real backends are; `.services/env` fills in what the environment does not say. */
export function readRealConfig(env: Env) {
  // the services' own readers: one place validates NATS_URL, the contact points and the keyspace suffix
  const { natsUrl, streamReplicas } = readBusConfig(env);
  return {
    natsUrl,
    // a 3-node NATS cluster and Cassandra ring (`services:up -- cluster` writes both): 3 and RF 3
    streamReplicas,
    ...readCassandraConfig(env),
    replication: readReplication(env),
    // where new status durables begin (as for the services); an existing one always resumes
    statusConsumerStart: oneOf(env, 'STATUS_CONSUMER_START', ['first', 'new'] as const, 'first'),
  };
}

function readReplication(env: Env): Replication | undefined {
  const text = env.CASSANDRA_REPLICATION;
  if (!text) return undefined;
  try {
    return parseReplication(text);
  } catch (err) {
    throw new ConfigError(`CASSANDRA_REPLICATION: ${(err as Error).message}`, { cause: err });
  }
}

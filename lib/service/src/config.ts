import { int, oneOf, required, str, ConfigError, type Env } from '@nvcf/config';
import { levels, logFormats, type Level, type LogFormat } from '@nvcf/logging';
import { readSecret } from './secret.js';

const BACKENDS = 'point it to your NATS / Cassandra (`npm run services:up` starts local ones and writes .services/env)';

/** What every service reads: where it listens, how loudly it logs, how long it drains. */
export function readServiceConfig(env: Env, defaults: { port: number }) {
  return {
    port: int(env, 'PORT', defaults.port, { min: 0, max: 65535 }),
    host: str(env, 'HOST', '0.0.0.0'),
    logLevel: oneOf<Level>(env, 'LOG_LEVEL', levels, 'info'),
    /** `json` lines, or `pretty` for a person; unset: pretty when stderr is a terminal */
    logFormat: env.LOG_FORMAT ? oneOf<LogFormat>(env, 'LOG_FORMAT', logFormats, 'json') : undefined,
    /** SIGTERM to exit: requests and message handlers in flight get this long to finish */
    drainGraceMs: int(env, 'DRAIN_GRACE_MS', 20_000, { min: 0, max: 600_000 }),
    /** at start: how long to wait for NATS, JetStream and Cassandra to be available (inside the chart's startupProbe) */
    startupTimeoutMs: int(env, 'STARTUP_TIMEOUT_MS', 90_000, { min: 0, max: 3_600_000 }),
  };
}

export function readBusConfig(env: Env) {
  return {
    natsUrl: required(env, 'NATS_URL', BACKENDS),
    streamReplicas: int(env, 'NATS_STREAM_REPLICAS', 1, { min: 1, max: 5 }),
  };
}

export function readCassandraConfig(env: Env) {
  const keyspaceSuffix = str(env, 'CASSANDRA_KEYSPACE_SUFFIX', '');
  if (!/^[a-z0-9_]*$/.test(keyspaceSuffix))
    throw new ConfigError(`CASSANDRA_KEYSPACE_SUFFIX may hold only a-z, 0-9 and _ (got '${keyspaceSuffix}')`);
  return {
    contactPoints: required(env, 'CASSANDRA_CONTACT_POINTS', BACKENDS)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    localDataCenter: str(env, 'CASSANDRA_LOCAL_DC', 'datacenter1'),
    keyspaceSuffix,
  };
}

/** Signs the tenant assertions between services; every service of one deployment shares it. */
export const readInternalSecret = (env: Env) =>
  readSecret(
    env,
    'NVCF_INTERNAL_SECRET',
    'the secret every service of this deployment shares to sign tenant assertions (a Kubernetes Secret)',
  );
/** Signs resume cursors; every gateway replica (and nvca-status) shares it, and it must outlive restarts. */
export const readCursorSecret = (env: Env) =>
  readSecret(
    env,
    'NVCF_CURSOR_SECRET',
    'the secret every gateway replica shares to sign resume cursors; separate from NVCF_INTERNAL_SECRET',
  );

/** A base URL (http or https), without a trailing slash. */
export function url(env: Env, name: string, hint: string): string {
  const raw = required(env, name, hint);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got '${raw}')`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL (got '${raw}')`);
  return raw.replace(/\/+$/, '');
}

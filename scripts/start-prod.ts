/**
 * npm run start:prod: the production topology on this machine, from the built output
 * (`npm run build` first), on the NATS and Cassandra named in the environment or in
 * .services/env (`npm run services:up`). Ctrl-C (or SIGTERM) stops every process.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createMigrator } from '@nvcf/cassandra';
import { readEnvFile, startTopology, MIGRATIONS_DIR, ROOT, packageDir } from '@nvcf/local/topology';

const env: Record<string, string> = {
  ...readEnvFile(path.join(ROOT, '.services/env')),
  ...(process.env as Record<string, string>),
};
for (const need of ['NATS_URL', 'CASSANDRA_CONTACT_POINTS']) {
  if (!env[need]) {
    console.error(`configuration error: ${need} is not set and .services/env has none; run npm run services:up`);
    process.exit(1);
  }
}
const missing = Object.values(packageDir).filter((d) => !existsSync(path.join(ROOT, d, 'dist', 'main.js')));
if (missing.length) {
  console.error(`not built: ${missing.join(', ')}; run npm run build first`);
  process.exit(1);
}

// the secrets a Kubernetes Secret would mount: made once, kept, handed over as files
const secrets = path.join(ROOT, '.services', 'prod');
mkdirSync(secrets, { recursive: true, mode: 0o700 });
const secretFile = (name: string) => {
  const f = path.join(secrets, name);
  if (!existsSync(f)) writeFileSync(f, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return f;
};
const port = Number(env.PORT ?? 4000);
const common = {
  NATS_URL: env.NATS_URL,
  CASSANDRA_CONTACT_POINTS: env.CASSANDRA_CONTACT_POINTS,
  CASSANDRA_LOCAL_DC: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
  NVCF_INTERNAL_SECRET_FILE: secretFile('internal-secret'),
  NVCF_CURSOR_SECRET_FILE: secretFile('cursor-secret'),
  // traces when an OTLP endpoint is set (`npm run services:up -- tracing` writes Jaeger's into .services/env)
  ...Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('OTEL_'))),
  LOG_LEVEL: env.LOG_LEVEL ?? 'info',
  SIM_START_DELAY_MS: env.SIM_START_DELAY_MS ?? '1500',
  SIM_UPDATE_DELAY_MS: env.SIM_UPDATE_DELAY_MS ?? '1500',
};

{
  const contactPoints = common.CASSANDRA_CONTACT_POINTS.split(',');
  await using migrator = await createMigrator({
    contactPoints,
    localDataCenter: common.CASSANDRA_LOCAL_DC,
    dir: MIGRATIONS_DIR,
    log: (l) => console.log(`migrate: ${l}`),
  });
  await migrator.up();
}
const tokens = env.AUTH_TOKENS ?? 'dev-token-a=nca-a,dev-token-b=nca-b';
const topology = await startTopology({
  env: common,
  mode: 'dist',
  stateDir: path.join(secrets, 'state'),
  gatewayPorts: [port, port + 1],
  gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: tokens, GRAPHIQL: 'on' },
  echo: env.LOG_LEVEL === 'debug',
});
console.log('NVCF control plane, production topology (each service its own process, built JavaScript):');
console.table(
  topology
    .processes()
    .map((p: { name: string; pid: number; url: string }) => ({ process: p.name, pid: p.pid, url: p.url })),
);
console.log(
  `API: ${topology.gateways.map((g) => `${g.url}/graphql`).join(' and ')} (tokens: ${tokens
    .split(',')
    .map((t) => t.split('=')[0])
    .join(', ')})`,
);
console.log(
  `subgraph services: ${Object.entries(topology.services)
    .map(([k, b]) => `${k} ${b.url}`)
    .join(', ')}`,
);
console.log('Press Ctrl-C to stop.');
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping every process…`);
  await topology.dispose();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

import { staticTokens, jwtTokens } from '@nvcf/auth';
import { ConfigError } from '@nvcf/config';
import { setLogLevel } from '@nvcf/logging';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { readJwtConfig } from '@nvcf/gateway';
import { readConfig, readRealConfig } from './config.js';
import { readEnvFile } from './env-file.js';
import { kubernetesDrivers, readKubernetesConfig } from './kubernetes.js';
import { realBackends } from './real.js';
import { startSystem } from './system.js';

async function main() {
  const config = readConfig(process.env);
  setLogLevel(config.logLevel);
  const driver = config.clusterDriver === 'kubernetes'
    ? await kubernetesDrivers(readKubernetesConfig({ ...readEnvFile(new URL('../../../.services/env', import.meta.url).pathname), ...process.env }).kubeconfig, loadRegistry(defaultRegistryPath()))
    : undefined;
  const backends = config.backend === 'real'
    ? await realBackends({ ...readRealConfig({ ...readEnvFile(new URL('../../../.services/env', import.meta.url).pathname), ...process.env }), log: (l) => console.log(`  migrate: ${l}`) })
    : undefined;
  const system = await startSystem({
    backends, driver, statusPath: config.statusPath,
    port: config.port, host: config.host, verify: config.authMode === 'jwt' ? jwtTokens(readJwtConfig(process.env)) : staticTokens(config.tokens), graphiql: true, secret: config.secret,
    metricsPort: config.metricsPort, introspection: config.introspection, gatewayLimits: config.gatewayLimits,
    trustedDocuments: config.trustedDocuments, trustedDocumentsFile: config.trustedDocumentsFile,
    sim: { startDelayMs: config.startDelayMs, updateDelayMs: config.updateDelayMs }, revisionDeadlineMs: config.revisionDeadlineMs,
  });
  console.log(`NVCF control plane (${config.backend === 'real' ? 'NATS JetStream and Cassandra' : 'embedded backends'}) at ${system.url}`);
  console.log(`  GraphQL IDE: open ${system.url} in a browser`);
  console.log(`  WebSocket subscriptions: ${system.gateway.wsUrl}`);
  console.log(`  metrics (loopback only): ${system.gateway.metricsUrl}/metrics`);
  if (config.authMode === 'dev') for (const [token, tenant] of Object.entries(config.tokens)) console.log(`  token for tenant ${tenant}: Authorization: Bearer ${token}`);
  console.log('Press Ctrl-C to stop.');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await system.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});

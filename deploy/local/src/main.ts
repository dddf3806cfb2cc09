import { ConfigError } from '@nvcf/config';
import { build } from '@nvcf/lifecycle';
import { ensureWebBuild } from '@nvcf/console/build';
import { setLogLevel } from '@nvcf/logging';
import { startTelemetry } from '@nvcf/telemetry';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { readConfig, readRealConfig } from './config.js';
import { readEnvFile } from './env-file.js';
import { kubernetesDrivers, kubernetesWebhook, readKubernetesConfig } from './kubernetes.js';
import { realBackends } from './real.js';
import { startSystem } from './system.js';

async function main() {
  const config = readConfig(process.env);
  const { gateway } = config;
  setLogLevel(config.logLevel);
  // every component in this one process traces as one service (OTEL_* variables; off without an endpoint)
  await startTelemetry('nvcf-local');
  if (gateway.graphiql || gateway.console) {
    // a fresh clone has no build; after that only changed sources rebuild (a hash check otherwise)
    const web = await ensureWebBuild({ log: (text) => process.stdout.write(text) });
    if (web.built) process.stdout.write(` done in ${(web.ms / 1000).toFixed(1)} s\n`);
  }
  const kubeconfig =
    config.clusterDriver === 'kubernetes'
      ? readKubernetesConfig({
          ...readEnvFile(new URL('../../../.services/env', import.meta.url).pathname),
          ...process.env,
        }).kubeconfig
      : undefined;
  const driver = kubeconfig ? await kubernetesDrivers(kubeconfig, loadRegistry(defaultRegistryPath())) : undefined;
  const real =
    config.backend === 'real'
      ? readRealConfig({ ...readEnvFile(new URL('../../../.services/env', import.meta.url).pathname), ...process.env })
      : undefined;
  // the webhook's registration outlives this process (failurePolicy Fail would then refuse pods in
  // instance namespaces): if what follows it fails to start, it is unregistered before the exit
  const { webhook, system, stack } = await build(async (stack) => {
    // before the agents, so that nothing they apply goes without the NVCF metadata
    const webhook = kubeconfig ? stack.use(await kubernetesWebhook(kubeconfig)) : undefined;
    const backends = real ? await realBackends({ ...real, log: (l) => console.log(`  migrate: ${l}`) }) : undefined;
    const system = stack.use(
      await startSystem({
        backends,
        driver,
        port: config.port,
        host: config.host,
        verify: gateway.verify,
        secret: config.secret,
        graphiql: gateway.graphiql,
        console: gateway.console,
        pageAuth: gateway.pageAuth,
        metricsPort: config.metricsPort,
        introspection: gateway.introspection,
        gatewayLimits: gateway.limits,
        trustedDocuments: gateway.trustedDocuments,
        trustedDocumentsFile: gateway.trustedDocumentsFile,
        trustedManifest: gateway.trustedManifest,
        sim: { startDelayMs: config.startDelayMs, updateDelayMs: config.updateDelayMs },
        revisionDeadlineMs: config.revisionDeadlineMs,
        // keyspaces of its own (CASSANDRA_KEYSPACE_SUFFIX) come with status durables of its own
        deploymentSuffix: real?.keyspaceSuffix || undefined,
        statusConsumerStart: real?.statusConsumerStart,
      }),
    );
    return { webhook, system, stack: stack.move() };
  });
  console.log(
    `NVCF control plane (${config.backend === 'real' ? 'NATS JetStream and Cassandra' : 'embedded backends'}) at ${system.url}`,
  );
  if (gateway.graphiql) console.log(`  GraphQL IDE: open ${system.url} in a browser`);
  if (gateway.console) console.log(`  console: ${system.gateway.url}/console/`);
  console.log(`  WebSocket subscriptions: ${system.gateway.wsUrl}`);
  console.log(`  metrics (loopback only): ${system.gateway.metricsUrl}/metrics`);
  if (webhook) console.log(`  admission webhook: ${webhook.url}/mutate (MutatingWebhookConfiguration ${webhook.name})`);
  for (const [token, tenant] of Object.entries(gateway.pageAuth.devTokens ?? {}))
    console.log(`  token for tenant ${tenant}: Authorization: Bearer ${token}`);
  console.log('Press Ctrl-C to stop.');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    // the system first, the webhook last (the stack's order)
    await stack.disposeAsync();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});

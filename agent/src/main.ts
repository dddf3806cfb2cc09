import { int, oneOf, required, str, type Env } from '@nvcf/config';
import { createLogger, setLogLevel } from '@nvcf/logging';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { DisposalStack } from '@nvcf/lifecycle';
import { listen, closeServer } from '@nvcf/http';
import { runMain, readServiceConfig, readBusConfig, processMetrics, connectBus, startupDeadline } from '@nvcf/service';
import { startAgent } from './agent.js';
import { createProbeServer } from './probes.js';
import { createSimulatedCluster } from './drivers/simulated.js';
import type { ClusterDriver } from './driver.js';

const readConfig = (env: Env) => {
  const driver = oneOf(env, 'CLUSTER_DRIVER', ['kubernetes', 'simulated'] as const, 'kubernetes');
  return {
    ...readServiceConfig(env, { port: 8080 }),
    ...readBusConfig(env),
    clusterId: required(env, 'CLUSTER_ID', 'the id ICMS knows this compute cluster by'),
    driver,
    kubeconfig: driver === 'kubernetes' ? str(env, 'KUBECONFIG', '') : '',
    registryFile: str(env, 'OPERATOR_REGISTRY_FILE', defaultRegistryPath()),
    sim: {
      startDelayMs: int(env, 'SIM_START_DELAY_MS', 1500, { min: 0 }),
      updateDelayMs: int(env, 'SIM_UPDATE_DELAY_MS', 1500, { min: 0 }),
      stateFile: str(env, 'SIM_STATE_FILE', '') || undefined,
    },
    concurrency: int(env, 'AGENT_CONCURRENCY', 64, { min: 1, max: 1024 }),
    /** how often the operators' CRDs are checked and a change reported to ICMS (0: only at start and on a failed apply) */
    operatorCheckMs: int(env, 'AGENT_OPERATOR_CHECK_MS', 60_000, { min: 0 }),
    /** how long an undeploy waits for the namespace to go before it reports the objects stuck (it keeps waiting) */
    removalTimeoutMs: int(env, 'AGENT_REMOVAL_TIMEOUT_MS', 120_000, { min: 1000 }),
  };
};

/** One agent process serves one compute cluster; /health, /ready and /metrics on PORT. */
runMain(
  'agent',
  () => readConfig(process.env),
  async (c) => {
    setLogLevel(c.logLevel);
    const log = createLogger(`agent ${c.clusterId}`);
    const stack = new DisposalStack();
    try {
      const registry = loadRegistry(c.registryFile);
      const bus = stack.use(await connectBus(c, `agent-${c.clusterId}`, startupDeadline(c)));
      let driver: ClusterDriver;
      if (c.driver === 'kubernetes') {
        // in a pod: the service account's in-cluster config; elsewhere KUBECONFIG
        const k8s = await import('./drivers/kubernetes/index.js');
        driver = k8s.createKubernetesDriver({
          clusterId: c.clusterId,
          client: k8s.createKubeClient(k8s.loadKubeConfig(c.kubeconfig || undefined)),
          registry,
          removalTimeoutMs: c.removalTimeoutMs,
        });
      } else driver = createSimulatedCluster({ clusterId: c.clusterId, registry, ...c.sim });
      stack.use(driver);
      const agent = await startAgent({ bus, driver, concurrency: c.concurrency, operatorCheckMs: c.operatorCheckMs });
      const probes = createProbeServer({
        clusterId: c.clusterId,
        phase: () => agent.phase,
        metrics: processMetrics('nvcf_agent'),
      });
      const url = await listen(probes, c.port, c.host);
      const rest = stack.move();
      return {
        describe: `cluster ${c.clusterId} (${c.driver}), probes ${url}`,
        drain: async () => {
          log.info('draining: applies in flight finish, the rest is redelivered to the next agent');
          try {
            await agent.drain(c.drainGraceMs);
          } finally {
            await closeServer(probes, { graceMs: 1000 });
            await rest.disposeAsync();
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

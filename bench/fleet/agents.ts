// One OS process hosting many agents (the fleet benchmark starts a few of these): each agent has its
// own simulated cluster and its own durable consumers, as in production; the process shares one NATS
// connection between them. FLEET_CLUSTERS: the cluster ids; NATS_URL, NATS_STREAM_REPLICAS, SIM_*_DELAY_MS.
import { startAgent, createSimulatedCluster, type Agent } from '@nvcf/agent';
import { createNatsBus } from '@nvcf/bus';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { setLogLevel } from '@nvcf/logging';

setLogLevel('error');
const need = (k: string) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const clusters = need('FLEET_CLUSTERS').split(',');
const delay = Number(process.env.SIM_UPDATE_DELAY_MS ?? '10');
const registry = loadRegistry(defaultRegistryPath());
const bus = await createNatsBus({
  servers: need('NATS_URL'),
  name: `fleet-agents-${process.pid}`,
  streamReplicas: Number(process.env.NATS_STREAM_REPLICAS ?? '1'),
});
const agents: Agent[] = [];
const drivers = clusters.map((clusterId) =>
  createSimulatedCluster({ clusterId, registry, startDelayMs: delay, updateDelayMs: delay }),
);
for (const driver of drivers) agents.push(await startAgent({ bus, driver, operatorCheckMs: 0 }));
process.stdout.write(`agents ready ${agents.length}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    for (const a of agents) await a.stop();
    for (const d of drivers) await d.dispose();
    await bus.dispose();
    process.exit(0);
  })();
});

import type { Bus } from '@nvcf/bus';
import { startAgent, type Agent, type AgentOptions, type ClusterDriver } from '@nvcf/agent';

export interface AgentFleetOptions {
  bus: Bus;
  /** the cluster an agent works on; made once per cluster and kept across the agent's restarts */
  makeDriver: (clusterId: string) => ClusterDriver;
  agent?: Pick<AgentOptions, 'backoff' | 'ackWaitMs' | 'operatorCheckMs'>;
}

/**
 * The in-process agents, one per cluster, and their drivers. An agent killed and started again
 * finds its cluster as its predecessor left it (the driver outlives it), as a restarted agent
 * pod finds its cluster.
 */
export class AgentFleet {
  readonly agents = new Map<string, Agent>();
  readonly drivers = new Map<string, ClusterDriver>();

  constructor(private readonly o: AgentFleetOptions) {}

  async start(clusterId: string): Promise<Agent> {
    let driver = this.drivers.get(clusterId);
    if (!driver) this.drivers.set(clusterId, (driver = this.o.makeDriver(clusterId)));
    const agent = await startAgent({ bus: this.o.bus, driver, ...this.o.agent });
    this.agents.set(clusterId, agent);
    return agent;
  }

  /** Kills a cluster's agent: work in flight is redelivered to the next one. */
  async stop(clusterId: string): Promise<void> {
    await this.agents.get(clusterId)?.stop();
    this.agents.delete(clusterId);
  }

  /** Every agent stops before any driver goes: no apply runs against a disposed cluster. */
  async dispose(): Promise<void> {
    for (const a of this.agents.values()) await a.stop();
    for (const d of this.drivers.values()) await d.dispose();
  }
}

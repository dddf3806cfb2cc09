/** The in-process agents of the one-process system: restarts keep the cluster, disposal stops agents before drivers. */
import { createMemoryBus, type Bus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { createSimulatedCluster, type ClusterDriver } from '@nvcf/agent';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { AgentFleet } from '../src/agents.js';

describe('AgentFleet', () => {
  const registry = loadRegistry(defaultRegistryPath());
  let bus: Bus;
  let made: string[];
  let events: string[];
  let fleet: AgentFleet;

  beforeEach(async () => {
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    made = [];
    events = [];
    fleet = new AgentFleet({
      bus,
      makeDriver: (clusterId): ClusterDriver => {
        made.push(clusterId);
        const driver = createSimulatedCluster({ clusterId, registry });
        return Object.assign(driver, {
          dispose: async () => {
            events.push(`dispose ${clusterId}: agent ${fleet.agents.get(clusterId)?.phase.kind ?? 'gone'}`);
          },
        });
      },
      agent: { operatorCheckMs: 0 },
    });
  });
  afterEach(() => bus.dispose());

  it('starts one agent per cluster, each on its own driver', async () => {
    const a = await fleet.start('c1');
    await fleet.start('c2');
    expect(a.clusterId).toBe('c1');
    expect(a.phase.kind).toBe('ready');
    expect([...fleet.agents.keys()]).toEqual(['c1', 'c2']);
    expect(made).toEqual(['c1', 'c2']);
    await fleet.dispose();
  });

  it('kills an agent and starts the next one on the same driver', async () => {
    const first = await fleet.start('c1');
    await fleet.stop('c1');
    expect(first.phase.kind).toBe('stopped');
    expect(fleet.agents.has('c1')).toBe(false);
    expect(fleet.drivers.has('c1')).toBe(true);
    const second = await fleet.start('c1');
    expect(second).not.toBe(first);
    expect(made).toEqual(['c1']);
    await fleet.dispose();
  });

  it('stops every agent before it disposes any driver', async () => {
    await fleet.start('c1');
    await fleet.start('c2');
    await fleet.dispose();
    expect(events).toEqual(['dispose c1: agent stopped', 'dispose c2: agent stopped']);
  });
});

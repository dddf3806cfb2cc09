/** The one-process system's wiring: its gateway's sign-in defaults, the order it closes in, a start that fails half-way. */
import { DisposalStack } from '@nvcf/lifecycle';
import { createMemoryBus } from '@nvcf/bus';
import { DEV_TOKENS, staticTokens } from '@nvcf/auth';
import { createSimulatedCluster, type ClusterDriver } from '@nvcf/agent';
import { loadRegistry, defaultRegistryPath } from '@nvcf/operators';
import { closeSystem, gatewayOptions, startSystem } from '../src/system.js';
import { demoClusters } from '../src/seed.js';

describe('gatewayOptions', () => {
  const bus = createMemoryBus();
  afterAll(() => bus.dispose());
  const subgraphs = { nvcf: 'http://n', icms: 'http://i', 'nvca-status': 'http://s', nvct: 'http://t' };
  const wiring = { subgraphs, secret: 's', bus, host: '127.0.0.1' };

  it('signs the IDE and the console in with the dev tokens when no verifier is given', () => {
    const o = gatewayOptions({}, wiring);
    expect(o.pageAuth).toEqual({ mode: 'dev', devTokens: DEV_TOKENS });
    expect(o.cursorSecret).toBe('s');
    expect(o.port).toBe(0);
  });

  it('expects JWTs when a verifier is given, unless told otherwise', () => {
    const verify = staticTokens({});
    expect(gatewayOptions({ verify }, wiring).pageAuth).toEqual({ mode: 'jwt' });
    expect(gatewayOptions({ verify, pageAuth: { mode: 'dev' } }, wiring).pageAuth).toEqual({ mode: 'dev' });
    expect(gatewayOptions({ verify }, wiring).verify).toBe(verify);
  });
});

describe('closeSystem', () => {
  it('closes the services in reverse order of start, then the backends', async () => {
    const order: string[] = [];
    const services = new DisposalStack();
    services.defer(() => order.push('subgraphs'));
    services.defer(() => order.push('gateway'));
    await closeSystem(services, { dispose: async () => void order.push('backends') });
    expect(order).toEqual(['gateway', 'subgraphs', 'backends']);
  });

  it('closes the backends even when a service fails to stop, and reports that failure', async () => {
    let closed = false;
    const services = new DisposalStack();
    services.defer(() => {
      throw new Error('gateway stuck');
    });
    await expect(
      closeSystem(services, {
        dispose: async () => {
          closed = true;
        },
      }),
    ).rejects.toThrow('gateway stuck');
    expect(closed).toBe(true);
  });
});

describe('startSystem', () => {
  it('stops the agents it started when a later one fails to start, and closes everything else', async () => {
    const registry = loadRegistry(defaultRegistryPath());
    const [first, second] = demoClusters('-partial');
    const disposed: string[] = [];
    await expect(
      startSystem({
        clusters: [first, second],
        driver: (clusterId): ClusterDriver => {
          if (clusterId === second.id) throw new Error(`no driver for ${clusterId}`);
          const driver = createSimulatedCluster({ clusterId, registry });
          return Object.assign(driver, { dispose: async () => void disposed.push(clusterId) });
        },
      }),
    ).rejects.toThrow(`no driver for ${second.id}`);
    // the first cluster's agent was stopped and its driver disposed, not left consuming work
    expect(disposed).toEqual([first.id]);
  });
});

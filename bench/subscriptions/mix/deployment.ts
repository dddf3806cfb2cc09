// What the realistic mix runs against: the production topology on this machine (each service
// its own OS process on NATS and Cassandra, as the chart deploys it), its two gateway replicas
// behind one port, and the instances the mix's events name, stored where icms and nvca-status
// look them up.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { realBackends } from '@nvcf/local/real';
import { startBalancer, startTopology } from '@nvcf/local/topology';
import type { ClusterRecord, InstanceRecord } from '@nvcf/subgraph-icms';
// the module alone: @nvcf/test's index needs jest's globals
import { deleteDurables } from '@nvcf/test/durables';
import { profileArgs, treeRssMb } from '../../lib.js';
import { authTokens, type MixTenant } from './tenants.js';

export interface MixInstance {
  id: string;
  clusterId: string;
}
export interface MixTenantDeployment extends MixTenant {
  functionId: string;
  versionId: string;
  gpuSpecificationId: string;
  instances: MixInstance[];
}

export interface MixDeployment {
  /** graphql-transport-ws endpoint of the Service in front of both gateway replicas */
  wsUrl: string;
  tenants: MixTenantDeployment[];
  /** cluster id → the name icms registered, as a remote selection must deliver it */
  clusterNames: Map<string, string>;
  /** both gateway replicas' resident memory */
  rssMb(): number;
  stop(): Promise<void>;
}

export interface MixDeploymentOptions {
  natsUrl: string;
  cassandra: { contactPoints: string[]; localDataCenter: string };
  tenants: MixTenant[];
}

const CLUSTERS = 4;
const INSTANCES_PER_TENANT = 4;

/**
 * Two gateway replicas, because the machine's cores hold two: behind the ready-aware balancer
 * the topology tests use for a Kubernetes Service (connections round-robin over the replicas
 * whose /ready answers 200). The subgraphs are the real services on the run's own keyspaces,
 * dropped with their durables when the run stops. No agent runs: the instances are stored as
 * ACTIVE in icms and nvca-status directly, since the mix publishes their transitions itself,
 * and a launch through nvcf would only add the wait for agents to the setup.
 */
export async function startMixDeployment(o: MixDeploymentOptions): Promise<MixDeployment> {
  const run = randomBytes(3).toString('hex');
  const suffix = `_mix${run}`;
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const c of cleanups.reverse())
      await c().catch((err: unknown) => console.error(`[bench] mix: cleanup: ${String(err)}`));
  };
  try {
    const backends = await realBackends({
      natsUrl: o.natsUrl,
      ...o.cassandra,
      keyspaceSuffix: suffix,
      dropKeyspaces: true,
    });
    cleanups.push(() => backends.dispose());
    cleanups.push(() => deleteDurables(o.natsUrl, suffix));
    const clusters: ClusterRecord[] = Array.from({ length: CLUSTERS }, (_, k) => ({
      id: `mix-c${k + 1}-${run}`,
      name: `mix-cluster-${k + 1}`,
      ncaId: 'nca-platform',
      authorizedNcaIds: o.tenants.map((t) => t.ncaId),
      attributes: [],
      regions: [`region-${k + 1}`],
      gpus: [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] }],
    }));
    const tenants = o.tenants.map((t): MixTenantDeployment => {
      const functionId = `mix-${run}-f${t.index + 1}`;
      return {
        ...t,
        functionId,
        versionId: `${functionId}-v`,
        gpuSpecificationId: `${functionId}-s`,
        instances: Array.from({ length: INSTANCES_PER_TENANT }, (_, j) => ({
          id: `${functionId}-i${j}`,
          clusterId: clusters[(t.index + j) % CLUSTERS].id,
        })),
      };
    });
    const now = new Date().toISOString();
    await backends.icmsStore.putInstances(
      tenants.flatMap((t) =>
        t.instances.map((i): InstanceRecord => ({
          id: i.id,
          ncaId: t.ncaId,
          functionId: t.functionId,
          versionId: t.versionId,
          gpuSpecificationId: t.gpuSpecificationId,
          clusterId: i.clusterId,
          launchRevisionId: `${t.functionId}-r1`,
          state: 'ACTIVE',
          revisionId: `${t.functionId}-r1`,
          clock: 1,
          singleTenant: false,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    // nvca-status learns a state from the stream too, but its reader shares the stream with whatever
    // else runs on this NATS and may be far behind: a state stored up front is there from the first event
    await Promise.all(
      tenants.flatMap((t) =>
        t.instances.map((i) =>
          backends.statusStore.record({
            instanceId: i.id,
            ncaId: t.ncaId,
            functionId: t.functionId,
            versionId: t.versionId,
            gpuSpecificationId: t.gpuSpecificationId,
            clusterId: i.clusterId,
            state: 'ACTIVE',
            revisionId: `${t.functionId}-r1`,
            updatedAt: now,
            clock: 1,
            seq: 0,
          }),
        ),
      ),
    );
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-mix-'));
    cleanups.push(async () => rmSync(stateDir, { recursive: true, force: true }));
    const topology = await startTopology({
      mode: 'source',
      stateDir,
      clusters,
      agents: false,
      deploymentSuffix: suffix,
      nodeArgs: profileArgs(),
      env: {
        NATS_URL: o.natsUrl,
        CASSANDRA_CONTACT_POINTS: o.cassandra.contactPoints.join(','),
        CASSANDRA_LOCAL_DC: o.cassandra.localDataCenter,
        CASSANDRA_KEYSPACE_SUFFIX: suffix,
        NVCF_INTERNAL_SECRET: randomBytes(24).toString('hex'),
        NVCF_CURSOR_SECRET: randomBytes(24).toString('hex'),
        STATUS_CONSUMER_START: 'new',
        NODE_ENV: 'production',
        LOG_LEVEL: 'error',
      },
      // the rate limits stay at their defaults: the mix paces its subscription opens under them
      gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: authTokens(o.tenants) },
    });
    cleanups.push(() => topology.dispose());
    const service = await startBalancer({ backends: topology.gateways.map((g) => g.url) });
    cleanups.push(() => service.dispose());
    return {
      wsUrl: `${service.url.replace(/^http/, 'ws')}/graphql`,
      tenants,
      clusterNames: new Map(clusters.map((c) => [c.id, c.name])),
      rssMb: () => topology.gateways.reduce((sum, g) => sum + treeRssMb(g.pid), 0),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Every process of the production topology started right after the JetStream meta leader's NATS
 * server and one Cassandra node were killed: each waits for what is not available yet (logged,
 * not ready meanwhile) instead of exiting, and all of them serve once the cluster has settled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { startTopology, type Topology } from '@nvcf/local/topology';
import { deleteDurables, httpClient, ok } from '@nvcf/test';
import { clusterEnv, clusterNodes, dropKeyspaces, migrateKeyspaces, topologyEnvOn, type Nodes } from './system.js';

const ClustersDocument = parse('query Clusters { clusters { id } }') as TypedDocumentNode<
  { clusters: { id: string }[] },
  Record<string, never>
>;

/** The NATS node whose server is JetStream's meta leader, from any live server's /jsz. */
async function metaLeader(nodes: Nodes, monitorUrls: string[]) {
  for (const url of monitorUrls) {
    const r = await fetch(`${url}/jsz`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (!r?.ok) continue;
    const jsz = (await r.json()) as { meta_cluster?: { leader?: string } };
    const leader = jsz.meta_cluster?.leader;
    const node = leader && nodes.nats.find((n) => n.name === leader || leader.endsWith(n.name));
    if (node) return node;
  }
  throw new Error('no NATS server names a JetStream meta leader');
}

describe('cluster: starting during a failure', () => {
  it('every process started right after the meta leader and a Cassandra node are killed becomes ready once the cluster settles', async () => {
    const env = clusterEnv();
    const nodes = clusterNodes();
    const suffix = `_start${randomBytes(3).toString('hex')}`;
    await migrateKeyspaces(env, suffix);
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-start-'));
    const nats = await metaLeader(nodes, env.monitorUrls);
    const cassandra = nodes.cassandra[2];
    let topology: Topology | undefined;
    try {
      await Promise.all([nodes.stop(nats, 'kill'), nodes.stop(cassandra, 'kill')]);
      const started = Date.now();
      topology = await startTopology({
        mode: 'source',
        stateDir,
        clusterSuffix: suffix.replace('_', '-'),
        deploymentSuffix: suffix,
        env: topologyEnvOn(env, suffix, randomBytes(24).toString('hex')),
        gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: 'dev-token-a=nca-a' },
      });
      // every process answered /ready (startTopology waits for each): none exited on the way
      expect(topology.processes().length).toBeGreaterThanOrEqual(8);
      console.log(JSON.stringify({ startDuringFailure: { readyAfterMs: Date.now() - started } }));
      for (const g of topology.gateways) {
        const clusters = ok(await httpClient(`${g.url}/graphql`, 'dev-token-a')(ClustersDocument, {})).clusters;
        expect(clusters.map((c) => c.id).sort()).toEqual([...topology.clusters].sort());
      }
    } finally {
      await topology?.dispose();
      await Promise.all([nodes.start(nats), nodes.start(cassandra)]);
      await nodes.natsHealthy();
      await nodes.ringUp();
      rmSync(stateDir, { recursive: true, force: true });
      await dropKeyspaces(env, suffix).catch(() => {});
      await deleteDurables(env.natsUrl, suffix.slice(1)).catch(() => {});
    }
  }, 420_000);
});

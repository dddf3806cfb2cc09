// Rollout time: updateGpuSpecification → APPLIED for N instances across 10 clusters, on NATS + Cassandra.
import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { setLogLevel } from '@nvcf/logging';
// the module alone: @nvcf/test's index needs jest's globals
import { deleteDurables } from '@nvcf/test/durables';
import { gql } from '../lib.js';

export interface RolloutResult {
  instances: number;
  clusters: number;
  deploy_s: number;
  rollout_s: number;
}
export interface ServicesEnv {
  NATS_URL: string;
  CASSANDRA_CONTACT_POINTS: string;
  CASSANDRA_LOCAL_DC?: string;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`rollout benchmark: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function run(n: number, env: ServicesEnv): Promise<RolloutResult> {
  const suffix = `_${randomBytes(3).toString('hex')}`;
  const base = demoClusters()[0];
  const clusters = Array.from({ length: 10 }, (_, i) => ({
    ...base,
    id: `bench-${i}${suffix.replace('_', '-')}`,
    name: `bench-${i}${suffix}`,
  }));
  const backends = await realBackends({
    natsUrl: env.NATS_URL,
    contactPoints: env.CASSANDRA_CONTACT_POINTS.split(','),
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    keyspaceSuffix: suffix,
    dropKeyspaces: true,
  });
  const system = await startSystem({
    backends,
    clusters,
    sim: { startDelayMs: 10, updateDelayMs: 10 },
    revisionDeadlineMs: 600_000,
    // durables of this run only, reading from now: the shared defaults would first work through every status
    // event earlier runs and tests left on the stream, and the deploy would time that
    deploymentSuffix: suffix,
    statusConsumerStart: 'new',
  });
  try {
    const v = (
      await gql(
        system.url,
        'mutation { createFunction(input: { name: "rollout", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id } }',
      )
    ).createFunction;
    const t0 = Date.now();
    const spec = (
      await gql(
        system.url,
        `mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: { gpuSpecifications: [{ gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: ${n}, maxInstances: ${n}, configuration: { model: "v1" } }] }) { gpuSpecifications { id } } }`,
        { v: v.id },
      )
    ).deployFunctionVersion.gpuSpecifications[0].id;
    const applied = async () =>
      (await gql(system.url, 'query($s: ID!) { gpuSpecification(id: $s) { latestRevision { status } } }', { s: spec }))
        .gpuSpecification.latestRevision.status === 'APPLIED';
    await waitFor(applied, 900_000, `${n} instances deployed`);
    const deployS = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    await gql(
      system.url,
      'mutation($s: ID!) { updateGpuSpecification(id: $s, input: { revision: { configuration: { model: "v2" } } }) { id } }',
      { s: spec },
    );
    await waitFor(applied, 900_000, `revision v2 APPLIED on ${n} instances`);
    return { instances: n, clusters: 10, deploy_s: deployS, rollout_s: (Date.now() - t1) / 1000 };
  } finally {
    await system.dispose();
    // the readers' and the agents' durables all carry the suffix
    await deleteDurables(env.NATS_URL, suffix.slice(1));
  }
}

export async function runRollout(sizes: number[], env: ServicesEnv): Promise<RolloutResult[]> {
  setLogLevel('error');
  const results: RolloutResult[] = [];
  for (const n of sizes) {
    const r = await run(n, env);
    console.error(`rollout: ${n} instances ${r.rollout_s} s`);
    results.push(r);
  }
  return results;
}

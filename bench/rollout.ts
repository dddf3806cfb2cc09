// Rollout time: updateGpuSpecification → APPLIED for N instances across 10 clusters, on NATS + Cassandra.
// npx tsx bench/rollout.ts [--instances 100,1000]   (needs npm run services:up)
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { startSystem, demoClusters } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { setLogLevel } from '@nvcf/logging';
import { gql } from './lib.js';

setLogLevel('error');
const sizes = (process.argv[process.argv.indexOf('--instances') + 1] ?? '100,1000').split(',').map(Number);
const env = Object.fromEntries(readFileSync('.services/env', 'utf8').trim().split('\n').map((l) => l.split('=') as [string, string]));
const base = demoClusters()[0]!;

async function waitFor<T>(check: () => Promise<T | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) { const v = await check(); if (v) return v; if (Date.now() > end) throw new Error('timed out'); await new Promise((r) => setTimeout(r, 50)); }
}

async function run(n: number) {
  const suffix = `_${randomBytes(3).toString('hex')}`;
  const clusters = Array.from({ length: 10 }, (_, i) => ({ ...base, id: `bench-${i}${suffix.replace('_', '-')}`, name: `bench-${i}${suffix}` }));
  const backends = await realBackends({ natsUrl: env.NATS_URL!, contactPoints: env.CASSANDRA_CONTACT_POINTS!.split(','), localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1', keyspaceSuffix: suffix, dropKeyspaces: true });
  const system = await startSystem({ backends, clusters, sim: { startDelayMs: 10, updateDelayMs: 10 }, revisionDeadlineMs: 600_000 });
  try {
    const v = (await gql(system.url, 'mutation { createFunction(input: { name: "rollout", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id } }')).createFunction;
    const t0 = Date.now();
    const spec = (await gql(system.url, `mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: { gpuSpecifications: [{ gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: ${n}, maxInstances: ${n}, configuration: { model: "v1" } }] }) { gpuSpecifications { id } } }`, { v: v.id })).deployFunctionVersion.gpuSpecifications[0].id;
    const revStatus = async () => (await gql(system.url, 'query($s: ID!) { gpuSpecification(id: $s) { latestRevision { id status } } }', { s: spec })).gpuSpecification.latestRevision;
    await waitFor(async () => (await revStatus()).status === 'APPLIED', 900_000);
    const deployS = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    await gql(system.url, 'mutation($s: ID!) { updateGpuSpecification(id: $s, input: { revision: { configuration: { model: "v2" } } }) { id } }', { s: spec });
    await waitFor(async () => (await revStatus()).status === 'APPLIED', 900_000);
    const rolloutS = (Date.now() - t1) / 1000;
    return { instances: n, clusters: 10, deploy_s: deployS, rollout_s: rolloutS };
  } finally {
    await system.dispose();
  }
}

const results: Awaited<ReturnType<typeof run>>[] = [];
for (const n of sizes) { const r = await run(n); console.log(r); results.push(r); }
const file = 'bench/results/latest.json';
const prev = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const by = (n: number) => results.find((r) => r.instances === n)?.rollout_s ?? null;
writeFileSync(file, JSON.stringify({ ...prev, date: new Date().toISOString(), rollout: { instances_100_s: by(100), instances_1000_s: by(1000), detail: results } }, null, 2));
process.exit(0);

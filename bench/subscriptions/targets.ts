// What each path serves subscriptions from: a process of its own, the function whose events the
// load subscribes to, and instances to publish those events for.
import { randomBytes } from 'node:crypto';
// the module alone: @nvcf/test's index needs jest's globals
import { deleteDurables } from '@nvcf/test/durables';
import { startControlPlane, startProcess, gql } from '../lib.js';

export type Path = 'gateway' | 'forward' | 'ceiling';
export const allPaths: Path[] = ['gateway', 'forward', 'ceiling'];
/** the saturation sweep: forwarding through Hive Gateway already falls behind at 5 000 deliveries/s */
export const sweepPaths: Path[] = ['gateway', 'ceiling'];

export interface Target {
  /** graphql-transport-ws endpoint */
  wsUrl: string;
  functionId: string;
  versionId: string;
  instanceIds: string[];
  rssMb(): number;
  stop(): Promise<void>;
}

const INSTANCES = 10;

export async function startTarget(path: Path, natsUrl: string): Promise<Target> {
  return path === 'ceiling' ? startCeiling(natsUrl) : startControlPlaneTarget(path, natsUrl);
}

/** The control plane's keyspaces and status durables in a benchmark run (its own, reused across runs). */
const BENCH_SUFFIX = '_bench';

async function startControlPlaneTarget(path: 'gateway' | 'forward', natsUrl: string): Promise<Target> {
  // status durables of a previous run would resume there and replay everything stored since (tests,
  // other benchmarks): the three readers' compare-and-sets would load Cassandra during the measurement
  await deleteDurables(natsUrl, BENCH_SUFFIX);
  const cp = await startControlPlane({
    NVCF_BACKEND: 'real',
    CASSANDRA_KEYSPACE_SUFFIX: BENCH_SUFFIX,
    STATUS_CONSUMER_START: 'new',
    STATUS_PATH: path,
    SIM_START_DELAY_MS: '10',
    SIM_UPDATE_DELAY_MS: '10',
  });
  try {
    const v = (
      await gql(
        cp.url,
        'mutation { createFunction(input: { name: "bench", helm: { chart: "oci://r/echo-1.0.0.tgz", serviceName: "echo" } }) { id function { id } } }',
      )
    ).createFunction;
    await gql(
      cp.url,
      `mutation($v: ID!) { deployFunctionVersion(versionId: $v, input: { gpuSpecifications: [{ gpu: "L40S", instanceType: "gl40s_1.br25_2xlarge", minInstances: ${INSTANCES}, maxInstances: ${INSTANCES} }] }) { id } }`,
      { v: v.id },
    );
    let active: string[] = [];
    // events for real, ACTIVE instances: the path resolves `instance { cluster }` through icms
    for (let i = 0; i < 200 && active.length < INSTANCES; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const specs = (
        await gql(
          cp.url,
          'query($v: ID!) { functionVersion(id: $v) { deployment { gpuSpecifications { instances { id state } } } } }',
          { v: v.id },
        )
      ).functionVersion.deployment.gpuSpecifications;
      active = specs[0].instances
        .filter((x: { state: string }) => x.state === 'ACTIVE')
        .map((x: { id: string }) => x.id);
    }
    if (!active.length) throw new Error(`${path}: no instance became ACTIVE within 20 s`);
    return {
      wsUrl: cp.url.replace('http', 'ws'),
      functionId: v.function.id,
      versionId: v.id,
      instanceIds: active,
      rssMb: cp.rssMb,
      stop: cp.stop,
    };
  } catch (err) {
    await cp.stop();
    throw err;
  }
}

async function startCeiling(natsUrl: string): Promise<Target> {
  // nothing resolves these ids, so they need not exist; unique per run so no other run's events match
  const functionId = `bench-ceiling-${randomBytes(4).toString('hex')}`;
  const p = await startProcess(
    'bench/ceiling/server.ts',
    { NATS_URL: natsUrl, CEILING_TENANT: 'nca-a', CEILING_FUNCTION_ID: functionId },
    /ceiling listening on (ws:\/\/\S+)/,
  );
  return {
    wsUrl: p.match[1],
    functionId,
    versionId: `${functionId}-v`,
    instanceIds: Array.from({ length: INSTANCES }, (_, i) => `${functionId}-i${i}`),
    rssMb: p.rssMb,
    stop: p.stop,
  };
}

// What each path serves subscriptions from: a process of its own, the function whose events the
// load subscribes to, and instances to publish those events for.
import { randomBytes } from 'node:crypto';
// the module alone: @nvcf/test's index needs jest's globals
import { deleteDurables } from '@nvcf/test/durables';
// the module alone, as above
import { startGatewayProcess } from '@nvcf/test/gateway-process';
import { startCosmoEdfs } from './cosmo-edfs.js';
import { profileArgs, startControlPlane, startProcess, gql, treeRssMb } from '../lib.js';

/**
 * `gateway`: the gateway inside `npm start` (the whole control plane in one process, status
 * readers writing to Cassandra beside the fan-out); `service`: the gateway service alone in its
 * own process, as the chart deploys it (it reads the stream itself; the stores' consumers run
 * elsewhere in production); `forward`: Hive Gateway forwarding to nvca-status beside the same
 * control plane (bench/subscriptions/forward/); `fair_ceiling`: the same NATS subjects fanned out
 * over WebSockets with the gateway's batching and nothing else (bench/ceiling/); `mix`: the
 * realistic mix through the deployed topology (bench/subscriptions/mix/), a session of its own;
 * `cosmo_edfs`: the Cosmo router subscribing to the same subjects through its EDFS (./cosmo-edfs.ts).
 */
export type Path = 'gateway' | 'service' | 'forward' | 'fair_ceiling' | 'cosmo_edfs' | 'mix';
export const allPaths: Path[] = ['gateway', 'service', 'forward', 'fair_ceiling'];
/**
 * The saturation sweep: ours as deployed against the fair ceiling, interleaved. Forwarding through
 * Hive Gateway already falls behind at 5 000 deliveries/s; npm start (`gateway`) runs on request,
 * alone, since its stores' readers work on every event of the stream.
 */
export const sweepPaths: Path[] = ['service', 'fair_ceiling'];

export interface Target {
  /** graphql-transport-ws endpoint */
  wsUrl: string;
  /** the subscription the load sends for the target's function, when the path's schema is not ours */
  query?: (functionId: string) => string;
  functionId: string;
  versionId: string;
  instanceIds: string[];
  rssMb(): number;
  stop(): Promise<void>;
}

const INSTANCES = 10;

export async function startTarget(path: Exclude<Path, 'mix'>, natsUrl: string): Promise<Target> {
  if (path === 'fair_ceiling') return startCeiling(natsUrl);
  if (path === 'service') return startGatewayService(natsUrl);
  if (path === 'cosmo_edfs') return { ...(await startCosmoEdfs(natsUrl)), ...syntheticIds('bench-cosmo') };
  return startControlPlaneTarget(path, natsUrl);
}

/** Ids nothing resolves (the subscription selects only what the event carries), unique per run. */
function syntheticIds(prefix: string) {
  const functionId = `${prefix}-${randomBytes(4).toString('hex')}`;
  return {
    functionId,
    versionId: `${functionId}-v`,
    instanceIds: Array.from({ length: INSTANCES }, (_, i) => `${functionId}-i${i}`),
  };
}

/**
 * The gateway service's own entrypoint, started as the tests start a gateway replica (the chart's
 * configuration). The benchmark's subscription selects only what a status event carries, so no
 * subgraph is asked anything: the subgraph URLs point nowhere.
 */
async function startGatewayService(natsUrl: string): Promise<Target> {
  const nowhere = 'http://127.0.0.1:9/graphql';
  const g = await startGatewayProcess({
    natsUrl,
    subgraphs: { nvcf: nowhere, icms: nowhere, 'nvca-status': nowhere, nvct: nowhere },
    secret: randomBytes(24).toString('hex'),
    tokens: { 'dev-token-a': 'nca-a' },
    // one tenant drives all the load
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      GATEWAY_OPERATIONS_PER_SECOND: '0',
      GATEWAY_SUBSCRIPTIONS_PER_SECOND: '0',
    },
    nodeArgs: profileArgs(),
  });
  return {
    wsUrl: g.wsUrl,
    ...syntheticIds('bench-service'),
    rssMb: () => treeRssMb(g.pid),
    stop: async () => {
      await g[Symbol.asyncDispose]();
    },
  };
}

/** The control plane's keyspaces and status durables in a benchmark run (its own, reused across runs). */
const BENCH_SUFFIX = '_bench';

async function startControlPlaneTarget(path: 'gateway' | 'forward', natsUrl: string): Promise<Target> {
  // status durables of a previous run would resume there and replay everything stored since (tests,
  // other benchmarks): the three readers' compare-and-sets would load Cassandra during the measurement
  await deleteDurables(natsUrl, BENCH_SUFFIX);
  const env = {
    NVCF_BACKEND: 'real',
    CASSANDRA_KEYSPACE_SUFFIX: BENCH_SUFFIX,
    STATUS_CONSUMER_START: 'new',
    SIM_START_DELAY_MS: '10',
    SIM_UPDATE_DELAY_MS: '10',
  };
  const cp =
    path === 'gateway'
      ? await startControlPlane(env).then((p) => ({ ...p, wsUrl: p.url.replace('http', 'ws') }))
      : await startForwarding(env);
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
      wsUrl: cp.wsUrl,
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

/** `npm start`'s system with the forwarding gateway beside it (bench/subscriptions/forward/main.ts). */
async function startForwarding(env: Record<string, string>) {
  const p = await startProcess('bench/subscriptions/forward/main.ts', { LOG_LEVEL: 'error', ...env }, FORWARD_READY);
  return { ...p, url: p.match[1], wsUrl: p.match[2] };
}
const FORWARD_READY = /control plane at (http:\/\/\S+), subscriptions at (ws:\/\/\S+)/;

async function startCeiling(natsUrl: string): Promise<Target> {
  // nothing resolves these ids, so they need not exist; unique per run so no other run's events match
  const ids = syntheticIds('bench-ceiling');
  const p = await startProcess(
    'bench/ceiling/server.ts',
    { NATS_URL: natsUrl, CEILING_TENANT: 'nca-a', CEILING_FUNCTION_ID: ids.functionId },
    /fair ceiling listening on (ws:\/\/\S+)/,
  );
  return { wsUrl: p.match[1], ...ids, rssMb: p.rssMb, stop: p.stop };
}

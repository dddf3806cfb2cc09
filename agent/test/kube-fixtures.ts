import { randomUUID } from 'node:crypto';
import type { HelmWorkload, OperatorWorkload } from '@nvcf/contracts';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import type { DesiredInstance } from '../src/index.js';
import {
  createKubeClient,
  createKubernetesDriver,
  loadKubeConfig,
  MINISERVICE,
  type KubeClient,
  type KubernetesDriver,
} from '../src/drivers/kubernetes/index.js';

/** The suites need a kube-apiserver, which costs a one-time build of several minutes. */
export const kubeEnabled = process.env.NVCF_TEST_KUBERNETES !== '0' && process.env.NVCF_TEST_BACKENDS !== 'memory';
export const describeKube = (name: string, fn: () => void) =>
  kubeEnabled
    ? describe(name, fn)
    : describe.skip(`${name} [skipped: NVCF_TEST_KUBERNETES=0 or NVCF_TEST_BACKENDS=memory]`, fn);

export function sharedClient(): KubeClient {
  const file = process.env.KUBECONFIG;
  if (!file)
    throw new Error(
      'KUBECONFIG is not set: run with NVCF_TEST_KUBERNETES=1 through jest (its global setup starts Kubernetes) or `npm run services:up -- kubernetes`',
    );
  return createKubeClient(loadKubeConfig(file));
}

export const registry = loadRegistry(defaultRegistryPath());
/** each test its own simulated cluster: objects are named and labelled per cluster */
export const newClusterId = () => `kt-${randomUUID().slice(0, 8)}`;
export const never = () => new AbortController().signal;

export const helm = (values: Record<string, unknown>, over: Partial<HelmWorkload> = {}): HelmWorkload => ({
  kind: 'helm',
  chart: 'oci://nvcr.io/nvcf/charts/echo-1.2.0.tgz',
  serviceName: 'echo',
  servicePort: 8000,
  values,
  ...over,
});

export const nim = (over: Record<string, unknown> = {}): OperatorWorkload => ({
  kind: 'operator',
  operatorTypes: ['nim'],
  serviceName: 'llama-svc',
  servicePort: 8000,
  manifests: [
    {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama' },
      spec: {
        image: { repository: 'nvcr.io/nim/llama', tag: '1.0' },
        replicas: 1,
        expose: { service: { port: 8000 } },
        ...over,
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'llama-svc' }, spec: { ports: [{ port: 8000 }] } },
  ],
});

export const dynamo = (): OperatorWorkload => ({
  kind: 'operator',
  operatorTypes: ['dynamo'],
  serviceName: 'graph-frontend',
  servicePort: 8000,
  manifests: [
    {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'graph' },
      spec: {
        services: {
          Frontend: { replicas: 1, componentType: 'frontend' },
          Worker: { replicas: 2, componentType: 'worker' },
        },
      },
    },
  ],
});

let revisions = 0;
export function desired(
  clusterId: string,
  workload: DesiredInstance['workload'],
  over: Partial<DesiredInstance> = {},
): DesiredInstance {
  revisions++;
  return {
    ncaId: 'nca-a',
    functionId: randomUUID(),
    versionId: randomUUID(),
    gpuSpecificationId: randomUUID(),
    clusterId,
    instanceId: randomUUID(),
    gpu: 'L40S',
    instanceType: 'gl40s_1.br25_2xlarge',
    revisionId: `rev-${revisions}`,
    revisionCreatedAt: new Date(Date.now() + revisions).toISOString(),
    workload,
    ...over,
  };
}
/** the next revision of an instance */
export const next = (d: DesiredInstance, workload: DesiredInstance['workload']): DesiredInstance => ({
  ...d,
  revisionId: `rev-${++revisions}`,
  revisionCreatedAt: new Date(Date.parse(d.revisionCreatedAt) + 1000).toISOString(),
  workload,
});

export const miniServiceOf = (client: KubeClient, clusterId: string, instanceId: string) =>
  client.get({ ...MINISERVICE, metadata: { name: `nvcf-${clusterId}-${instanceId}` } });

export const NAMESPACE_REF = { apiVersion: 'v1', kind: 'Namespace' } as const;

/** Polls until `check` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Deletes what a test's simulated cluster left on the shared API server. */
export async function cleanupCluster(client: KubeClient, clusterId: string): Promise<void> {
  for (const kind of [MINISERVICE, NAMESPACE_REF]) {
    const list = await client.list(kind.apiVersion, kind.kind, {
      labelSelector: `nvcf.nvidia.com/cluster-id=${clusterId}`,
    });
    for (const item of list.items) await client.delete({ ...kind, metadata: { name: item.metadata.name } });
  }
}

/**
 * Per test: a cluster id of its own and a Kubernetes driver on the shared API server, disposed
 * and cleaned up after it. Read the fields in a later beforeEach or in the test.
 */
export function driverPerTest(o: { pollMs?: number } = {}) {
  const k = {} as { client: KubeClient; clusterId: string; driver: KubernetesDriver };
  beforeAll(() => {
    k.client = sharedClient();
  });
  beforeEach(() => {
    k.clusterId = newClusterId();
    k.driver = createKubernetesDriver({ clusterId: k.clusterId, client: k.client, registry, pollMs: o.pollMs ?? 500 });
  });
  afterEach(async () => {
    await k.driver.dispose();
    await cleanupCluster(k.client, k.clusterId);
  });
  return k;
}

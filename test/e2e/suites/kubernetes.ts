import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKubeClient, createKubernetesDriver, loadKubeConfig, type KubeClient } from '@nvcf/agent/kubernetes';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import { demoClusters, type System, type SystemOptions } from '@nvcf/local';
import { startRealSystem } from '@nvcf/test';
import { fast } from './system.js';

/**
 * The cross-service suites on the Kubernetes driver: every agent on the kube-apiserver the jest
 * global setup starts (NATS and Cassandra too), whose cluster simulator plays the controllers.
 */
export const kubeEnabled = process.env.NVCF_TEST_KUBERNETES !== '0' && process.env.NVCF_TEST_BACKENDS !== 'memory';
export const describeKubernetes: jest.Describe = kubeEnabled ? describe : describe.skip;

/** A third operator type whose CRD the API server does not have: the missing-operator case (docs/operators.md). */
export const KSERVE_TYPE = `
  - name: kserve
    clusterAttribute: KServeSupport
    kinds:
      - apiVersion: serving.kserve.io/v1beta1
        kind: InferenceService
        ready: { path: "status.conditions[type=Ready].status", values: ["True"] }
        failed:
          - { condition: { type: Ready, status: "False", reasons: [RevisionFailed] }, severity: permanent }
        schema: { type: object, required: [spec], properties: { spec: { type: object, required: [predictor] } } }
    extraTypes:
      - apiVersion: v1
        kind: Service
        ready: { path: metadata.name, values: [] }
    rbac:
      - kind: ClusterRole
        name: kserve-controller
        rules:
          - apiGroups: [serving.kserve.io]
            resources: [inferenceservices, inferenceservices/status]
            verbs: [get, list, watch, create, update, patch, delete]
`;

export function registryWithKserve(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'operators.yaml');
  writeFileSync(file, readFileSync(defaultRegistryPath(), 'utf8').trimEnd() + '\n' + KSERVE_TYPE);
  return file;
}

export function kubeClient(): KubeClient {
  const file = process.env.KUBECONFIG;
  if (!file)
    throw new Error('KUBECONFIG is not set: the jest global setup starts Kubernetes unless NVCF_TEST_KUBERNETES=0');
  return createKubeClient(loadKubeConfig(file));
}

export interface KubeSystem {
  system: System;
  client: KubeClient;
  registryPath: string;
}

/**
 * One system per test file: NATS, Cassandra, and agents on the Kubernetes driver. Cluster-b also
 * advertises KServeSupport, whose CRD is not installed. Undeploys report stuck objects after 2 s.
 */
export async function startKubeSystem(over: SystemOptions = {}): Promise<KubeSystem> {
  const client = kubeClient();
  const registryPath = registryWithKserve();
  const registry = loadRegistry(registryPath);
  const clusters = demoClusters(`-k${randomBytes(3).toString('hex')}`).map((c) =>
    c.attributes.length ? { ...c, attributes: [...c.attributes, 'KServeSupport'] } : c,
  );
  const system = await startRealSystem({
    ...fast,
    revisionDeadlineMs: 30_000,
    clusters,
    registryPath,
    agentOperatorCheckMs: 0,
    driver: (clusterId) => createKubernetesDriver({ clusterId, client, registry, pollMs: 500, removalTimeoutMs: 2000 }),
    ...over,
  });
  return { system, client, registryPath };
}

/** Deletes what a system's clusters left on the shared API server. */
export async function cleanupKube(client: KubeClient, system: System | undefined): Promise<void> {
  for (const c of system?.clusters ?? []) {
    for (const kind of [
      { apiVersion: 'nvca.nvcf.nvidia.io/v1alpha1', kind: 'MiniService' },
      { apiVersion: 'v1', kind: 'Namespace' },
    ]) {
      const list = await client
        .list(kind.apiVersion, kind.kind, { labelSelector: `nvcf.nvidia.com/cluster-id=${c.id}` })
        .catch(() => ({ items: [] }));
      for (const item of list.items)
        await client.delete({ ...kind, metadata: { name: item.metadata.name } }).catch(() => {});
    }
  }
}

import {
  ClustersDocument,
  CreateFunctionDocument,
  DeployFunctionVersionDocument,
  OperatorTypesDocument,
  UpdateGpuSpecificationDocument,
  UndeployFunctionVersionDocument,
  InstanceStatusChangedDocument,
} from '@nvcf/client';
import { LABEL, REVISION_ANNOTATION, SIM_ANNOTATION } from '@nvcf/operators';
import type { SimulatedCluster } from '@nvcf/agent';
import type { System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import {
  httpClient,
  ok,
  errorCode,
  waitRevision,
  readSpec,
  versionStatus,
  wsSubscribe,
  watchSubscriptions,
  gauge,
  l40s,
  type HttpClient,
} from '@nvcf/test';
import { fast, operatorCluster, plainCluster, type MakeSystem } from './system.js';

const nimService = (over: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.nvidia.com/v1alpha1',
  kind: 'NIMService',
  metadata: { name: 'llama' },
  spec: { image: { repository: 'nvcr.io/nim/llama', tag: '1.0' }, replicas: 1, expose: { service: { port: 8000 } } },
  ...over,
});
const service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'llama-svc' },
  spec: { ports: [{ port: 8000 }] },
};
const nimSpec = (over = {}) => l40s({ minInstances: 1, maxInstances: 2, configuration: null, ...over });

async function nimFunction(
  client: HttpClient,
  manifests: unknown[] = [nimService(), service],
  operatorTypes = ['nim'],
) {
  return client(CreateFunctionDocument, { input: { name: 'nim-llama', operator: { operatorTypes, manifests } } });
}
async function deployNim(client: HttpClient, versionId: string, input: Record<string, unknown> = {}) {
  return client(DeployFunctionVersionDocument, {
    versionId,
    input: { gpuSpecifications: [nimSpec()], serviceName: 'llama-svc', servicePort: 8000, ...input } as any,
  });
}

/** The operator families of the agents' /metrics (in process: the gateway's page) for one operator type. */
async function operatorMetricsOf(metricsUrl: string, operator: string) {
  const [installing, ready, failed, installs, ratio] = await Promise.all([
    gauge(metricsUrl, 'nvca_operator_phase_transitions_total', { operator, phase: 'Installing' }),
    gauge(metricsUrl, 'nvca_operator_phase_transitions_total', { operator, phase: 'Ready' }),
    gauge(metricsUrl, 'nvca_operator_phase_transitions_total', { operator, phase: 'Failed' }),
    gauge(metricsUrl, 'nvca_operator_install_seconds_count', { operator }),
    gauge(metricsUrl, 'nvca_operator_secondary_ready_ratio', { operator }),
  ]);
  return { installing, ready, failed, installs, ratio };
}

/** DOMAIN.md "Operator workloads", through the gateway. */
export function operatorsSuite(name: string, make: MakeSystem) {
  const options = { ...fast, sim: { ...fast.sim, operatorDelayMs: 150 } };
  describe(`${name}: operator workloads`, () => {
    let system: System;
    const a = () => httpClient(system.url, 'dev-token-a');
    const b = () => httpClient(system.url, 'dev-token-b');
    const sim = (clusterId: string) => system.drivers.get(clusterId) as unknown as SimulatedCluster;
    beforeEach(async () => {
      system = await make(options);
    });
    afterEach(async () => system?.dispose());

    it("lists the registry's operator types", async () => {
      const types = ok(await a()(OperatorTypesDocument, {})).operatorTypes;
      expect(types.map((t) => [t.name, t.clusterAttribute])).toEqual([
        ['dynamo', 'DynamoOperatorSupport'],
        ['nim', 'NIMOperatorSupport'],
      ]);
      expect(types[1].kinds).toEqual(['NIMService', 'NIMCache', 'NIMPipeline']);
    });

    it.each([
      [
        'a disallowed kind',
        [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }],
        ['nim'],
        'INVALID_MANIFEST',
        'manifests[0] (kind Pod): v1/Pod is not on the allowlist',
      ],
      [
        'a kind of an undeclared type',
        [nimService()],
        ['dynamo'],
        'INVALID_MANIFEST',
        "belongs to operator type 'nim', which is not declared",
      ],
      [
        'a namespace',
        [nimService({ metadata: { name: 'llama', namespace: 'prod' } })],
        ['nim'],
        'INVALID_MANIFEST',
        'metadata.namespace must not be set',
      ],
      [
        'a bad name',
        [service, nimService({ metadata: { name: 'Llama_3' } })],
        ['nim'],
        'INVALID_MANIFEST',
        'manifests[1] (kind NIMService): metadata.name must be a DNS-1123 label',
      ],
      [
        'a structural error',
        [nimService({ spec: { replicas: 1 } })],
        ['nim'],
        'INVALID_MANIFEST',
        "schema: /spec must have required property 'image'",
      ],
      ['an unknown operator type', [nimService()], ['kserve'], 'BAD_USER_INPUT', "unknown operator type 'kserve'"],
    ])('create with %s is refused', async (_what, manifests, types, code, message) => {
      const r = await nimFunction(a(), manifests, types);
      expect(errorCode(r)).toBe(code);
      expect(r.errors![0].message).toContain(message);
    });

    it('an operator workload is exclusive with container and helm', async () => {
      const r = await a()(CreateFunctionDocument, {
        input: {
          name: 'x',
          operator: { operatorTypes: ['nim'], manifests: [nimService()] },
          helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' },
        },
      });
      expect(errorCode(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0].message).toContain('exactly one of container, helm or operator');
    });

    it('deploys on a cluster with the attribute, labels every object, and is ACTIVE only once secondary objects are ready', async () => {
      const watchA = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      const operatorMetrics = () => operatorMetricsOf(system.gateway.metricsUrl, 'nim');
      const before = await operatorMetrics();
      const v = ok(await nimFunction(a())).createFunction;
      await using sub = wsSubscribe(system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        versionId: v.id,
      });
      await watchA.opened(1);
      const dep = ok(
        await deployNim(a(), v.id, {
          manifestMergePatches: [{ kind: 'NIMService', metadata: { name: 'llama' }, spec: { replicas: 2 } }],
        }),
      );
      const specId = dep.deployFunctionVersion.gpuSpecifications[0].id;
      const s = await waitRevision(a(), specId, 'APPLIED');
      expect(s.instances.map((i) => i.cluster.id)).toEqual([operatorCluster(system)]); // both clusters offer L40S; only cluster-b runs NIM
      const id = s.instances[0].id;
      const active = (await sub.until((e) => e.some((x) => x.instanceStatusChanged.state === 'ACTIVE'))).find(
        (x) => x.instanceStatusChanged.state === 'ACTIVE',
      )!;
      // the simulated objects are plain JSON: the assertions below are the type check
      const objects: { object: any; readyAt: number | null }[] = sim(operatorCluster(system)).objects(id);
      expect(objects.map((o) => o.object.kind).sort()).toEqual(['Deployment', 'NIMService', 'Service']);
      const secondary = objects.find((o) => o.object.kind === 'Deployment')!;
      const nim = objects.find((o) => o.object.kind === 'NIMService')!;
      expect(secondary.readyAt! - nim.readyAt!).toBeGreaterThanOrEqual(100); // the operator is slower than the apply
      expect(Date.parse(active.instanceStatusChanged.at)).toBeGreaterThanOrEqual(secondary.readyAt! - 1);
      for (const o of objects)
        expect(o.object.metadata.labels).toMatchObject({
          [LABEL.instanceId]: id,
          [LABEL.ncaId]: 'nca-a',
          [LABEL.versionId]: v.id,
        });
      expect(nim.object.spec.replicas).toBe(2);
      expect(nim.object.spec.labels[LABEL.functionId]).toBe(v.function.id); // the pod template path of NIMService
      expect(await versionStatus(a(), v.id)).toBe('ACTIVE');
      // the instance's MiniService, and the operator metrics the agent recorded from its status
      expect(sim(operatorCluster(system)).miniService(id)?.status).toMatchObject({ phase: 'Ready', readiness: '1/1' });
      const after = await operatorMetrics();
      expect(after.installing).toBeGreaterThanOrEqual(before.installing + 1);
      expect(after.ready).toBe(before.ready + 1);
      expect(after.installs).toBe(before.installs + 1);
      expect(after.ratio).toBe(1);
    });

    it.each([
      ['no serviceName', { serviceName: null }, 'BAD_USER_INPUT', 'serviceName and servicePort are required'],
      [
        'a patch that renames',
        {
          manifestMergePatches: [
            { kind: 'NIMService', metadata: { name: 'llama' }, apiVersion: 'apps.nvidia.com/v1beta9' },
          ],
        },
        'INVALID_MANIFEST',
        'would change apiVersion',
      ],
      [
        'a patch with a namespace',
        { manifestMergePatches: [{ kind: 'NIMService', metadata: { name: 'llama', namespace: 'x' } }] },
        'INVALID_MANIFEST',
        'would change metadata.namespace',
      ],
      [
        'a patch to an unknown target',
        { manifestMergePatches: [{ kind: 'NIMService', metadata: { name: 'other' } }] },
        'INVALID_MANIFEST',
        "targets NIMService 'other'",
      ],
      [
        'a patch that breaks the schema',
        { manifestMergePatches: [{ kind: 'NIMService', metadata: { name: 'llama' }, spec: { replicas: -1 } }] },
        'INVALID_MANIFEST',
        'schema: /spec/replicas must be >= 0',
      ],
    ])('deploy with %s is refused and nothing is placed', async (_what, input, code, message) => {
      const v = ok(await nimFunction(a())).createFunction;
      const r = await deployNim(a(), v.id, input);
      expect(errorCode(r)).toBe(code);
      expect(r.errors![0].message).toContain(message);
      expect(await versionStatus(a(), v.id)).toBe('INACTIVE');
    });

    it('updates with merge patches under the revision rules; a patch of the service port needs a redeploy', async () => {
      const v = ok(await nimFunction(a())).createFunction;
      const specId = ok(await deployNim(a(), v.id)).deployFunctionVersion.gpuSpecifications[0].id;
      const first = await waitRevision(a(), specId, 'APPLIED');
      const port = await a()(UpdateGpuSpecificationDocument, {
        id: specId,
        input: {
          revision: {
            manifestMergePatches: [
              { kind: 'Service', metadata: { name: 'llama-svc' }, spec: { ports: [{ port: 9000 }] } },
            ],
          },
        },
      });
      expect(errorCode(port)).toBe('REDEPLOY_REQUIRED');
      const helmy = await a()(UpdateGpuSpecificationDocument, {
        id: specId,
        input: { revision: { configuration: { replicas: 3 } } },
      });
      expect(errorCode(helmy)).toBe('BAD_USER_INPUT');
      expect((await readSpec(a(), specId))!.latestRevision!.id).toBe(first.latestRevision!.id);
      const rev = ok(
        await a()(UpdateGpuSpecificationDocument, {
          id: specId,
          input: {
            revision: {
              manifestMergePatches: [{ kind: 'NIMService', metadata: { name: 'llama' }, spec: { replicas: 3 } }],
            },
          },
        }),
      ).updateGpuSpecification.latestRevision!;
      const s = await waitRevision(a(), specId, 'APPLIED');
      expect(s.lastAppliedRevision!.manifestMergePatches).toEqual([
        { kind: 'NIMService', metadata: { name: 'llama' }, spec: { replicas: 3 } },
      ]);
      const nim: { object: any } = sim(operatorCluster(system))
        .objects(s.instances[0].id)
        .find((o) => o.object.kind === 'NIMService')!;
      expect(nim.object.spec.replicas).toBe(3);
      expect(nim.object.metadata.annotations[REVISION_ANNOTATION]).toBe(rev.id);
    });

    it('places only on clusters that carry the attribute, and says so when none does', async () => {
      const v = ok(await nimFunction(a())).createFunction;
      const r = await a()(DeployFunctionVersionDocument, {
        versionId: v.id,
        input: {
          gpuSpecifications: [nimSpec({ clusters: [plainCluster(system)] })],
          serviceName: 'llama-svc',
          servicePort: 8000,
        },
      });
      expect(errorCode(r)).toBe('NO_ELIGIBLE_CLUSTER');
      expect(r.errors![0].message).toContain('missing attribute NIMOperatorSupport');
    });

    it('a cluster hosting an operator workload is single-tenant until it is gone', async () => {
      const v = ok(await nimFunction(a())).createFunction;
      const specId = ok(await deployNim(a(), v.id)).deployFunctionVersion.gpuSpecifications[0].id;
      await waitRevision(a(), specId, 'APPLIED');
      expect(ok(await b()(ClustersDocument, {})).clusters.map((c) => c.id)).toEqual([plainCluster(system)]);
      const other = ok(
        await b()(CreateFunctionDocument, {
          input: { name: 'b-fn', helm: { chart: 'oci://r/echo-1.0.0.tgz', serviceName: 'echo' } },
        }),
      ).createFunction;
      const refused = await b()(DeployFunctionVersionDocument, {
        versionId: other.id,
        input: { gpuSpecifications: [l40s({ clusters: [operatorCluster(system)] })] },
      });
      expect(errorCode(refused)).toBe('NO_ELIGIBLE_CLUSTER');
      expect(refused.errors![0].message).toContain('no eligible cluster'); // cluster-b is not even offered to tenant b
      ok(await a()(UndeployFunctionVersionDocument, { versionId: v.id }));
      await waitUntil(async () => ok(await b()(ClustersDocument, {})).clusters.length === 2, {
        what: 'cluster-b released',
      });
      ok(
        await b()(DeployFunctionVersionDocument, {
          versionId: other.id,
          input: { gpuSpecifications: [l40s({ clusters: [operatorCluster(system)] })] },
        }),
      );
    });

    it('an operator workload is not placed where another tenant already runs', async () => {
      const other = ok(
        await b()(CreateFunctionDocument, {
          input: { name: 'b-fn', helm: { chart: 'oci://r/echo-1.0.0.tgz', serviceName: 'echo' } },
        }),
      ).createFunction;
      ok(
        await b()(DeployFunctionVersionDocument, {
          versionId: other.id,
          input: { gpuSpecifications: [l40s({ minInstances: 1, clusters: [operatorCluster(system)] })] },
        }),
      );
      const v = ok(await nimFunction(a())).createFunction;
      const r = await deployNim(a(), v.id);
      expect(errorCode(r)).toBe('NO_ELIGIBLE_CLUSTER');
      expect(r.errors![0].message).toContain("hosts other tenants' workloads");
    });
  });
}

type KubeSystem = import('./kubernetes.js').KubeSystem;
const dynamoGraph = (annotations: Record<string, string> = {}) => ({
  apiVersion: 'nvidia.com/v1alpha1',
  kind: 'DynamoGraphDeployment',
  metadata: { name: 'graph', ...(Object.keys(annotations).length ? { annotations } : {}) },
  spec: { services: { Frontend: { replicas: 1, componentType: 'frontend' } } },
});
const graphSvc = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'graph-frontend' },
  spec: { ports: [{ port: 8000 }] },
};
/** what the simulated Dynamo controller writes instead of becoming ready (SIM_ANNOTATION) */
const dynamoFailure = (reason: string, message: string, state = 'failed') =>
  JSON.stringify({ state, conditions: [{ type: 'Ready', status: 'False', reason, message }] });

/**
 * Operator workloads on the Kubernetes driver (NATS, Cassandra, the test kube-apiserver whose
 * cluster simulator plays the NIM and Dynamo operators): failure rules, a missing operator, and
 * an undeploy held by a finalizer. One system for the file.
 */
export function operatorsKubernetesSuite(
  start: () => Promise<KubeSystem>,
  cleanup: (k: KubeSystem | undefined) => Promise<void>,
) {
  describe('kubernetes driver: operator workloads', () => {
    let k: KubeSystem;
    const a = () => httpClient(k.system.url, 'dev-token-a');
    const b = () => httpClient(k.system.url, 'dev-token-b');
    beforeAll(async () => {
      k = await start();
    });
    afterAll(async () => {
      await k?.system.dispose();
      await cleanup(k);
    });

    const deploy = async (manifests: unknown[], operatorTypes: string[], serviceName: string) => {
      const v = ok(
        await a()(CreateFunctionDocument, {
          input: { name: `op-${operatorTypes[0]}`, operator: { operatorTypes, manifests } },
        }),
      ).createFunction;
      const r = await a()(DeployFunctionVersionDocument, {
        versionId: v.id,
        input: {
          gpuSpecifications: [nimSpec({ minInstances: 1, maxInstances: 1 })],
          serviceName,
          servicePort: 8000,
        } as any,
      });
      return { v, r, specId: r.data?.deployFunctionVersion.gpuSpecifications[0]!.id };
    };
    const undeploy = async (versionId: string) => {
      ok(await a()(UndeployFunctionVersionDocument, { versionId }));
      await waitUntil(async () => ok(await b()(ClustersDocument, {})).clusters.length === 2, {
        what: 'the operator cluster released',
        timeoutMs: 30_000,
      });
    };

    it('a failure condition set by the Dynamo controller fails the instance before its deadline, with its message', async () => {
      const failedBefore = (await operatorMetricsOf(k.system.gateway.metricsUrl, 'dynamo')).failed;
      const t0 = Date.now();
      const { v, specId } = await deploy(
        [
          dynamoGraph({
            [SIM_ANNOTATION.status]: dynamoFailure(
              'ImagePullFailed',
              'pull access denied for nvcr.io/nvidia/dynamo:bad',
            ),
          }),
          graphSvc,
        ],
        ['dynamo'],
        'graph-frontend',
      );
      const s = await waitRevision(a(), specId!, 'FAILED', 20_000);
      // the revision deadline is 30 s: well before it, this is the failure rule (with room for a loaded CI host)
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(s.instances.map((i) => i.state)).toEqual(['FAILED']);
      expect(s.latestRevision!.failureReason).toContain(
        'DynamoGraphDeployment/graph: status.state=failed: pull access denied for nvcr.io/nvidia/dynamo:bad',
      );
      // the instance's MiniService says so too, and the agent counted the phase it read there
      const ms = (
        await k.client.list('nvca.nvcf.nvidia.io/v1alpha1', 'MiniService', {
          labelSelector: `${LABEL.instanceId}=${s.instances[0].id}`,
        })
      ).items[0];
      expect(ms.status).toMatchObject({ phase: 'Failed', conditions: [{ type: 'Ready', reason: 'OperatorFailed' }] });
      expect((await operatorMetricsOf(k.system.gateway.metricsUrl, 'dynamo')).failed).toBe(failedBefore + 1);
      await undeploy(v.id);
    });

    it('an update the operator fails keeps the instance on its last revision; a temporary failure is retried until it passes', async () => {
      const { v, specId } = await deploy([dynamoGraph(), graphSvc], ['dynamo'], 'graph-frontend');
      const first = await waitRevision(a(), specId!, 'APPLIED');
      const ns = (
        await k.client.list('v1', 'Namespace', { labelSelector: `${LABEL.instanceId}=${first.instances[0].id}` })
      ).items[0];
      const uid = (await k.client.get({
        apiVersion: 'nvidia.com/v1alpha1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'graph', namespace: ns.metadata.name },
      }))!.metadata.uid;
      const patch = (annotations: Record<string, string>, replicas: number) => ({
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'graph', annotations },
        spec: { services: { Frontend: { replicas } } },
      });
      ok(
        await a()(UpdateGpuSpecificationDocument, {
          id: specId!,
          input: {
            revision: {
              manifestMergePatches: [
                patch({ [SIM_ANNOTATION.status]: dynamoFailure('Failed', 'frontend crashed: CUDA out of memory') }, 2),
              ],
            },
          },
        }),
      );
      const failed = await waitRevision(a(), specId!, 'FAILED', 10_000);
      expect(failed.latestRevision!.failureReason).toContain(
        'status.state=failed: frontend crashed: CUDA out of memory',
      );
      expect(failed.lastAppliedRevision!.id).toBe(first.latestRevision!.id);
      expect(failed.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', first.latestRevision!.id]]);
      // Unschedulable is temporary: the agent keeps trying, and the revision applies once it passes
      const temp = ok(
        await a()(UpdateGpuSpecificationDocument, {
          id: specId!,
          input: {
            revision: {
              manifestMergePatches: [
                patch(
                  {
                    [SIM_ANNOTATION.status]: dynamoFailure('Unschedulable', '0/3 nodes have free GPUs', 'pending'),
                    [SIM_ANNOTATION.statusForMs]: '1500',
                  },
                  3,
                ),
              ],
            },
          },
        }),
      ).updateGpuSpecification.latestRevision!;
      const s = await waitRevision(a(), specId!, 'APPLIED', 20_000);
      expect(s.instances.map((i) => [i.state, i.revisionId])).toEqual([['ACTIVE', temp.id]]);
      expect(
        (await k.client.get({
          apiVersion: 'nvidia.com/v1alpha1',
          kind: 'DynamoGraphDeployment',
          metadata: { name: 'graph', namespace: ns.metadata.name },
        }))!.metadata.uid,
      ).toBe(uid);
      await undeploy(v.id);
    });

    // the agents of this system check CRDs only when an apply meets a missing one (operatorCheckMs 0),
    // so the first deploy is placed; agents that check at start (the default) report it before
    it('a cluster whose attribute claims an operator without its CRD fails at once, naming it, and is not offered again', async () => {
      const isvc = {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        metadata: { name: 'llama' },
        spec: { predictor: { model: { modelFormat: { name: 'hf' } } } },
      };
      const svc = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'llama-svc' },
        spec: { ports: [{ port: 8000 }] },
      };
      const t0 = Date.now();
      const { v, specId } = await deploy([isvc, svc], ['kserve'], 'llama-svc');
      const s = await waitRevision(a(), specId!, 'FAILED', 20_000);
      expect(Date.now() - t0).toBeLessThan(20_000); // before the 30 s revision deadline: failed at once
      expect(s.latestRevision!.failureReason).toContain("operator type 'kserve' not installed on cluster");
      expect(s.latestRevision!.failureReason).toContain(
        'inferenceservices.serving.kserve.io (serving.kserve.io/v1beta1 InferenceService)',
      );
      // the agent told ICMS: kserve is no longer placed on that cluster
      const again = await waitUntil(
        async () => {
          const r = (await deploy([isvc, svc], ['kserve'], 'llama-svc')).r;
          return errorCode(r) === 'NO_ELIGIBLE_CLUSTER' && r;
        },
        { what: 'kserve refused by placement' },
      );
      expect(again.errors![0].message).toContain(
        "operator type 'kserve' not installed (its agent reported CRD inferenceservices.serving.kserve.io missing",
      );
      await undeploy(v.id);
    });

    it('undeploy waits for finalizers: stuck objects are reported with their finalizers; TERMINATED and the lock released once clean', async () => {
      const { v, specId } = await deploy([nimService(), service], ['nim'], 'llama-svc');
      const s = await waitRevision(a(), specId!, 'APPLIED');
      const id = s.instances[0].id;
      const ns = (await k.client.list('v1', 'Namespace', { labelSelector: `${LABEL.instanceId}=${id}` })).items[0]
        .metadata.name!;
      const nimRef = {
        apiVersion: 'apps.nvidia.com/v1alpha1',
        kind: 'NIMService',
        metadata: { name: 'llama', namespace: ns },
      };
      await k.client.mergePatch(nimRef, { metadata: { finalizers: ['example.com/hold'] } }, 'nvcf-test');
      await using sub = wsSubscribe(k.system.gateway.wsUrl, 'dev-token-a', InstanceStatusChangedDocument, {
        instanceId: id,
        snapshot: true,
      });
      await sub.until((e) => e.some((x) => x.instanceStatusChanged.kind === 'SNAPSHOT'), 'the snapshot');
      ok(await a()(UndeployFunctionVersionDocument, { versionId: v.id }));
      const events = await sub.until(
        (e) => e.some((x) => x.instanceStatusChanged.state === 'FAILED'),
        'the undeploy reported stuck',
      );
      const stuck = events.find((x) => x.instanceStatusChanged.state === 'FAILED')!.instanceStatusChanged;
      expect(stuck.message).toContain('undeploy stuck: namespace');
      expect(stuck.message).toContain('NIMService/llama (finalizers: example.com/hold)');
      expect(ok(await b()(ClustersDocument, {})).clusters.length).toBe(1); // still single-tenant: the cluster is not clean
      await k.client.mergePatch(nimRef, { metadata: { finalizers: null } }, 'nvcf-test');
      await sub.until((e) => e.some((x) => x.instanceStatusChanged.state === 'TERMINATED'), 'TERMINATED once clean');
      expect(await k.client.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).toBeNull();
      await waitUntil(async () => ok(await b()(ClustersDocument, {})).clusters.length === 2, {
        what: 'the lock released',
      });
    });
  });
}

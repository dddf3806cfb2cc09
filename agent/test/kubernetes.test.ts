/**
 * The Kubernetes driver against the shared kube-apiserver of `services:up -- kubernetes` (jest
 * starts it unless NVCF_TEST_KUBERNETES=0), whose cluster simulator plays the MiniService
 * controller and the operators.
 */
import { PermanentFailure, TemporaryFailure } from '../src/index.js';
import { createKubernetesDriver, type KubeClient, type KubernetesDriver } from '../src/drivers/kubernetes/index.js';
import {
  describeKube,
  driverPerTest,
  desired,
  helm,
  miniServiceOf,
  NAMESPACE_REF,
  never,
  newClusterId,
  next,
  nim,
  registry,
  waitFor,
} from './kube-fixtures.js';

describeKube('kubernetes driver on a real API server', () => {
  const k = driverPerTest();
  let client: KubeClient;
  let clusterId: string;
  let driver: KubernetesDriver;
  beforeEach(() => ({ client, clusterId, driver } = k));

  it('applies a Helm instance as one cluster-scoped MiniService with the whole values, ready once Running at its generation', async () => {
    const d = desired(clusterId, helm({ replicas: 2, model: { name: 'llama' } }));
    await driver.apply(d, never());
    const ms = await miniServiceOf(client, clusterId, d.instanceId);
    expect(ms?.spec).toEqual({
      chart: 'oci://nvcr.io/nvcf/charts/echo-1.2.0.tgz',
      serviceName: 'echo',
      servicePort: 8000,
      gpu: 'L40S',
      instanceType: 'gl40s_1.br25_2xlarge',
      values: { replicas: 2, model: { name: 'llama' } },
    });
    expect(ms?.status).toMatchObject({ phase: 'Running', observedGeneration: ms?.metadata.generation });
    expect(ms?.metadata.labels).toMatchObject({
      'nvcf.nvidia.com/instance-id': d.instanceId,
      'nvcf.nvidia.com/cluster-id': clusterId,
    });
    expect((ms?.metadata.managedFields as { manager: string }[]).map((f) => f.manager)).toContain('nvcf-agent');
    expect(await driver.observe(d.instanceId)).toMatchObject({ desired: d, readyRevisionId: d.revisionId });
  });

  it('re-applying the same revision changes nothing: same generation, same resourceVersion', async () => {
    const d = desired(clusterId, helm({ a: 1 }));
    await driver.apply(d, never());
    const before = await miniServiceOf(client, clusterId, d.instanceId);
    await driver.apply(d, never());
    await driver.apply(structuredClone(d), never());
    const after = await miniServiceOf(client, clusterId, d.instanceId);
    expect(after?.metadata.generation).toBe(before?.metadata.generation);
    expect(after?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  it('updates in place: same UID, generation + 1, values replaced whole (never merged)', async () => {
    const d1 = desired(clusterId, helm({ a: 1, nested: { keep: false, drop: true }, list: [1, 2, 3] }));
    await driver.apply(d1, never());
    const before = await miniServiceOf(client, clusterId, d1.instanceId);
    const d2 = next(d1, helm({ nested: { keep: true }, list: [4] }));
    await driver.apply(d2, never());
    const after = await miniServiceOf(client, clusterId, d1.instanceId);
    expect(after?.metadata.uid).toBe(before?.metadata.uid);
    expect(after?.metadata.generation).toBe(before!.metadata.generation! + 1);
    expect(after?.spec.values).toEqual({ nested: { keep: true }, list: [4] });
    expect(after?.status).toMatchObject({ phase: 'Running', observedGeneration: after?.metadata.generation });
    expect(after?.metadata.annotations?.['nvcf.nvidia.com/revision-id']).toBe(d2.revisionId);
    expect((await driver.observe(d1.instanceId))?.readyRevisionId).toBe(d2.revisionId);
  });

  it('an object the CRD schema rejects is a PermanentFailure with the API server message', async () => {
    const port = desired(clusterId, helm({}, { servicePort: 70000 }));
    await expect(driver.apply(port, never())).rejects.toThrow(PermanentFailure);
    await expect(driver.apply(port, never())).rejects.toThrow(
      /spec\.servicePort: Invalid value: 70000: spec\.servicePort in body should be less than or equal to 65535/,
    );
    const noTag = desired(clusterId, nim({ image: { repository: 'nvcr.io/nim/llama' } }));
    await expect(driver.apply(noTag, never())).rejects.toThrow(
      /NIMService.apps.nvidia.com "llama" is invalid: .*spec\.image\.tag: Required value/,
    );
  });

  it('a failure the controller reports: Failed is permanent, Retrying is temporary until it passes', async () => {
    const bad = desired(clusterId, helm({ nvcfSimulate: { failure: 'permanent' } }));
    await expect(driver.apply(bad, never())).rejects.toThrow(
      new PermanentFailure(
        `MiniService nvcf-${clusterId}-${bad.instanceId}: values rejected by the chart (nvcfSimulate permanent failure)`,
      ),
    );
    const flaky = desired(clusterId, helm({ nvcfSimulate: { failure: 'temporary', failTimes: 2, delayMs: 300 } }));
    const outcomes: string[] = [];
    for (;;) {
      try {
        await driver.apply(flaky, never());
        outcomes.push('ready');
        break;
      } catch (err) {
        expect(err).toBeInstanceOf(TemporaryFailure);
        outcomes.push((err as Error).message.replace(/.*\(/, '('));
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(outcomes[0]).toBe('(nvcfSimulate temporary failure 1 of 2)');
    expect(outcomes).toContain('(nvcfSimulate temporary failure 2 of 2)');
    expect(outcomes.at(-1)).toBe('ready');
  });

  it('keeps what a restarted agent needs on the object: desired, ready revision, reported state, clock', async () => {
    const d = desired(clusterId, helm({ a: 1 }));
    expect(await driver.observe(d.instanceId)).toBeNull();
    await driver.noteReported(d.instanceId, 'STARTING', 1); // nothing applied yet: nothing to remember
    await driver.apply(d, never());
    await driver.noteReported(d.instanceId, 'ACTIVE', 1_800_000_000_000_001);
    const restarted = createKubernetesDriver({ clusterId, client, registry });
    expect(await restarted.observe(d.instanceId)).toEqual({
      desired: d,
      readyRevisionId: d.revisionId,
      reportedState: 'ACTIVE',
      lastClock: 1_800_000_000_000_001,
    });
    // another cluster on the same API server sees none of it, and cannot remove it
    const other = createKubernetesDriver({ clusterId: newClusterId(), client, registry });
    expect(await other.observe(d.instanceId)).toBeNull();
    await other.remove(d.instanceId, false);
    expect(await miniServiceOf(client, clusterId, d.instanceId)).not.toBeNull();
    await Promise.all([restarted.dispose(), other.dispose()]);
  });

  it('operator workloads: the manifests in the instance namespace with NVCF labels; remove takes the namespace away', async () => {
    const d = desired(clusterId, nim());
    await driver.apply(d, never());
    const ns = `nvcf-${clusterId}-${d.instanceId}`;
    const svc = await client.get({
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama', namespace: ns },
    });
    expect(svc?.metadata.labels).toMatchObject({
      'nvcf.nvidia.com/instance-id': d.instanceId,
      'nvcf.nvidia.com/function-id': d.functionId,
      'nvcf.nvidia.com/cluster-id': clusterId,
    });
    expect(svc?.spec.labels).toMatchObject({ 'nvcf.nvidia.com/instance-id': d.instanceId }); // the pod template, for what the operator creates
    expect(svc?.status).toMatchObject({ state: 'Ready' });
    const deployments = await client.list('apps/v1', 'Deployment', {
      namespace: ns,
      labelSelector: `nvcf.nvidia.com/instance-id=${d.instanceId}`,
    });
    expect(deployments.items.map((x) => [x.metadata.name, x.status?.readyReplicas])).toEqual([['llama', 1]]);
    expect(await driver.observe(d.instanceId)).toMatchObject({ desired: d, readyRevisionId: d.revisionId });
    await driver.remove(d.instanceId, true);
    expect(await driver.observe(d.instanceId)).toBeNull();
    await waitFor(async () => (await client.get({ ...NAMESPACE_REF, metadata: { name: ns } })) === null, 20_000);
  });
});

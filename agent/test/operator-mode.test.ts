/**
 * MiniService operator mode on the shared kube-apiserver, whose cluster simulator runs the
 * controller's operator mode (startOperatorMode, the code of this package) beside its simulated
 * NIM and Dynamo operators; and the same status from the simulated driver in process.
 */
import { LABEL, SIM_ANNOTATION } from '@nvcf/operators';
import { metrics } from '@nvcf/telemetry';
import { createSimulatedCluster, PermanentFailure } from '../src/index.js';
import {
  createKubernetesDriver,
  FIELD_MANAGER,
  instanceNamespace,
  OPERATOR_FINALIZER,
  OPERATOR_MODE_MANAGER,
  RECORD,
  type KubeClient,
  type KubeObject,
  type KubernetesDriver,
} from '../src/drivers/kubernetes/index.js';
import { operatorObjects } from '../src/drivers/kubernetes/operator.js';
import {
  describeKube,
  driverPerTest,
  desired,
  dynamo,
  miniServiceOf,
  NAMESPACE_REF,
  never,
  nim,
  registry,
  waitFor,
} from './kube-fixtures.js';

const managers = (o: KubeObject | null) =>
  ((o?.metadata.managedFields ?? []) as { manager: string }[]).map((f) => f.manager);

/** The value of one series of the process's metrics, 0 when absent. */
function sample(name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = metrics()
    .render()
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && want.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('operator mode on the simulated driver', () => {
  it('an operator instance has a MiniService whose status is phase, readiness and a Ready condition', async () => {
    const sim = createSimulatedCluster({ clusterId: 'sim-om', registry, startDelayMs: 20, operatorDelayMs: 40 });
    const before = sample('nvca_operator_phase_transitions_total', { operator: 'dynamo', phase: 'Ready' });
    const d = desired('sim-om', dynamo());
    await sim.apply(d, never());
    expect(sim.miniService(d.instanceId)).toEqual({
      spec: {
        operatorTypes: ['dynamo'],
        manifests: d.workload.kind === 'operator' ? d.workload.manifests : [],
        manifestMergePatches: [],
      },
      status: {
        phase: 'Ready',
        readiness: '1/1', // the simulated Dynamo operator's component
        message: 'every object ready (1/1 created by the operators)',
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ObjectsReady',
            message: 'every object ready (1/1 created by the operators)',
          },
        ],
      },
    });
    expect(sample('nvca_operator_phase_transitions_total', { operator: 'dynamo', phase: 'Ready' })).toBe(before + 1);
    expect(sample('nvca_operator_install_seconds_count', { operator: 'dynamo' })).toBeGreaterThanOrEqual(1);
    expect(sample('nvca_operator_secondary_ready_ratio', { operator: 'dynamo' })).toBe(1);
    await sim.remove(d.instanceId, true);
    expect(sim.miniService(d.instanceId)).toBeNull();
  });

  it('a failure rule that matches is phase Failed, and the agent gets its message as a permanent failure', async () => {
    const sim = createSimulatedCluster({ clusterId: 'sim-om-f', registry, startDelayMs: 20 });
    const w = dynamo();
    const failing = {
      ...w,
      manifests: w.manifests.map((m) => ({
        ...m,
        metadata: {
          name: 'graph',
          annotations: {
            [SIM_ANNOTATION.status]: JSON.stringify({ state: 'failed', message: 'pull access denied' }),
          },
        },
      })),
    };
    const d = desired('sim-om-f', failing);
    await expect(sim.apply(d, never())).rejects.toThrow(PermanentFailure);
    expect(sim.miniService(d.instanceId)?.status).toMatchObject({
      phase: 'Failed',
      conditions: [{ type: 'Ready', status: 'False', reason: 'OperatorFailed' }],
    });
    expect(sim.miniService(d.instanceId)?.status.message).toContain('DynamoGraphDeployment/graph: status.state=failed');
  });
});

describeKube('MiniService operator mode on a real API server', () => {
  const k = driverPerTest();
  let client: KubeClient;
  let clusterId: string;
  let driver: KubernetesDriver;
  beforeEach(() => ({ client, clusterId, driver } = k));

  it('an operator instance is a MiniService in operator mode: the controller applies its manifests and writes phase, readiness and conditions', async () => {
    const d = desired(clusterId, nim());
    const phases: string[] = [];
    const record = (p: string | undefined) => {
      if (p && phases.at(-1) !== p) phases.push(p);
    };
    // one read at a time, so the phases are recorded in the order the API server had them
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        record((await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase as string | undefined);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      await driver.apply(d, never());
    } finally {
      watching = false;
      await watcher;
    }
    const ms = await miniServiceOf(client, clusterId, d.instanceId);
    // the watcher may have stopped between its last read and the apply's end
    record(ms?.status?.phase as string | undefined);
    const ns = `nvcf-${clusterId}-${d.instanceId}`;
    expect(ms?.spec).toMatchObject({
      operatorTypes: ['nim'],
      manifestMergePatches: [],
      namespace: ns,
      serviceName: 'llama-svc',
      servicePort: 8000,
    });
    expect(ms?.spec.manifests).toEqual(d.workload.kind === 'operator' ? d.workload.manifests : null);
    expect(ms?.metadata.finalizers).toEqual([OPERATOR_FINALIZER]);
    expect(ms?.status).toMatchObject({
      observedGeneration: ms?.metadata.generation,
      phase: 'Ready',
      readiness: '1/1', // the NIM operator's Deployment
      conditions: [{ type: 'Ready', status: 'True', reason: 'ObjectsReady' }],
    });
    expect(phases).toContain('Installing');
    expect(phases.at(-1)).toBe('Ready');
    expect(phases.indexOf('Installing')).toBeLessThan(phases.lastIndexOf('Ready'));
    // the controller owns the instance's objects, the agent only its MiniService and namespace
    const svc = await client.get({
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama', namespace: ns },
    });
    expect(svc?.metadata.labels).toMatchObject({
      [LABEL.instanceId]: d.instanceId,
      'nvcf.nvidia.com/cluster-id': clusterId,
    });
    expect(managers(svc)).toContain(OPERATOR_MODE_MANAGER);
    expect(managers(svc)).not.toContain(FIELD_MANAGER);
    expect(managers(ms)).toContain(FIELD_MANAGER);
    expect(await driver.observe(d.instanceId)).toMatchObject({ desired: d, readyRevisionId: d.revisionId });
    // kubectl get miniservices shows it beside the Helm instances
    const listed = await client.list('nvca.nvcf.nvidia.io/v1alpha1', 'MiniService', {
      labelSelector: `nvcf.nvidia.com/cluster-id=${clusterId}`,
    });
    expect(listed.items.map((i) => i.metadata.name)).toEqual([ns]);
  });

  it('a failure the operator reports is phase Failed with its message; the agent reports it permanently', async () => {
    const w = dynamo();
    w.manifests[0].metadata = {
      name: 'graph',
      annotations: {
        [SIM_ANNOTATION.status]: JSON.stringify({
          state: 'failed',
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'ImagePullFailed',
              message: 'pull access denied for nvcr.io/x:bad',
            },
          ],
        }),
      },
    };
    const d = desired(clusterId, w);
    await expect(driver.apply(d, never())).rejects.toThrow(
      new PermanentFailure('DynamoGraphDeployment/graph: status.state=failed: pull access denied for nvcr.io/x:bad'),
    );
    const ms = await miniServiceOf(client, clusterId, d.instanceId);
    expect(ms?.status).toMatchObject({
      phase: 'Failed',
      conditions: [{ type: 'Ready', status: 'False', reason: 'OperatorFailed' }],
    });
  });

  it('removing an instance shows Deleting until its namespace is gone, then the MiniService goes', async () => {
    const d = desired(clusterId, nim());
    await driver.apply(d, never());
    const ns = `nvcf-${clusterId}-${d.instanceId}`;
    // an object the operator holds with a finalizer keeps the namespace, and so the MiniService
    const nimRef = {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama', namespace: ns },
    };
    await client.mergePatch(nimRef, { metadata: { finalizers: ['example.com/hold'] } }, 'nvcf-test');
    const removing = driver.remove(d.instanceId, true);
    await waitFor(
      async () => (await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase === 'Deleting',
      10_000,
      'Deleting',
    );
    expect((await miniServiceOf(client, clusterId, d.instanceId))?.status?.message).toBe(
      'deleting the instance namespace and everything in it',
    );
    await client.mergePatch(nimRef, { metadata: { finalizers: null } }, 'nvcf-test');
    await removing;
    expect(await miniServiceOf(client, clusterId, d.instanceId)).toBeNull();
    expect(await client.get({ ...NAMESPACE_REF, metadata: { name: ns } })).toBeNull();
  }, 30_000);

  it('an instance of the loose-manifest layout is adopted as a MiniService without recreating its objects', async () => {
    // what an agent before operator mode left: the manifests applied by the agent itself into
    // the instance namespace, the record (ready revision, reported state) on the namespace
    const d = desired(clusterId, nim());
    const w = d.workload.kind === 'operator' ? d.workload : nim();
    const ns = `nvcf-${clusterId}-${d.instanceId}`;
    const nsObj = await client.apply(instanceNamespace(ns, d), FIELD_MANAGER);
    for (const m of operatorObjects(ns, d, clusterId, w.operatorTypes, w.manifests, registry))
      await client.apply(m, FIELD_MANAGER);
    const nimRef = {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama', namespace: ns },
    };
    const deploymentRef = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'llama', namespace: ns } };
    await waitFor(
      async () => (await client.get(deploymentRef))?.status?.readyReplicas === 1,
      15_000,
      'the operator ready',
    );
    await client.mergePatch(
      nsObj,
      {
        metadata: {
          annotations: {
            [RECORD.readyRevision]: d.revisionId,
            [RECORD.reportedState]: 'ACTIVE',
            [RECORD.lastClock]: '7',
          },
        },
      },
      FIELD_MANAGER,
    );
    const before = await Promise.all([client.get(nimRef), client.get(deploymentRef)]);
    expect(await miniServiceOf(client, clusterId, d.instanceId)).toBeNull();

    // the upgraded agent
    expect(await driver.observe(d.instanceId)).toEqual({
      desired: d,
      readyRevisionId: d.revisionId,
      reportedState: 'ACTIVE',
      lastClock: 7,
    });
    await waitFor(
      async () => (await miniServiceOf(client, clusterId, d.instanceId))?.status?.phase === 'Ready',
      15_000,
      'the adopted MiniService Ready',
    );
    const ms = await miniServiceOf(client, clusterId, d.instanceId);
    expect(ms?.status?.readiness).toBe('1/1');
    const after = await Promise.all([client.get(nimRef), client.get(deploymentRef)]);
    for (const [i, obj] of after.entries()) {
      expect(obj?.metadata.uid).toBe(before[i]?.metadata.uid);
      expect(obj?.metadata.generation).toBe(before[i]?.metadata.generation);
    }
    expect(managers(after[0])).toContain(OPERATOR_MODE_MANAGER);
    // and a restarted agent reads the record from the MiniService now
    const restarted = createKubernetesDriver({ clusterId, client, registry });
    expect(await restarted.observe(d.instanceId)).toMatchObject({
      readyRevisionId: d.revisionId,
      reportedState: 'ACTIVE',
    });
    await restarted.dispose();
  }, 40_000);
});

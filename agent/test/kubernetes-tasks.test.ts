/**
 * Tasks on the Kubernetes driver, on the shared kube-apiserver: a container task is a Job (this
 * file runs its own Job controller from test/services/cluster-sim, which the shared simulator
 * may predate), a Helm or an operator task a MiniService, whose controller is the shared
 * simulator's. Each test has a cluster id of its own.
 */
import { randomUUID } from 'node:crypto';
import type { ContainerWorkload, RunTaskMessage, Workload } from '@nvcf/contracts';
import { SIM_ANNOTATION } from '@nvcf/operators';
import { jobController } from '../../test/services/cluster-sim/index.js';
import {
  CLUSTER_LABEL,
  createKubernetesDriver,
  FIELD_MANAGER,
  MINISERVICE,
  type KubeObject,
} from '../src/drivers/kubernetes/index.js';
import { taskJob, taskMetadata } from '../src/drivers/kubernetes/tasks.js';
import { AgentStopped } from '../src/index.js';
import { describeKube, driverPerTest, helm, never, registry, waitFor } from './kube-fixtures.js';

const container = (): ContainerWorkload => ({
  kind: 'container',
  image: 'nvcr.io/nca-a/eval:1',
  args: ['--epochs', '1'],
  environment: { MODE: 'eval' },
});
const nimCache = (annotations: Record<string, string> = {}): Workload => ({
  kind: 'operator',
  operatorTypes: ['nim'],
  // what nvct sends for a task, which serves nothing
  serviceName: '',
  servicePort: 0,
  manifests: [
    {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMCache',
      metadata: { name: 'llama-cache', annotations },
      spec: { source: { ngc: { modelPuller: 'nvcr.io/nim/llama:1.0' } } },
    },
  ],
});

const task = (clusterId: string, workload: Workload, nvcfSimulate?: Record<string, unknown>): RunTaskMessage => ({
  type: 'run-task',
  ncaId: 'nca-a',
  taskId: randomUUID(),
  clusterId,
  gpu: 'L40S',
  instanceType: 'gl40s_1.br25_2xlarge',
  workload,
  configuration: nvcfSimulate ? { nvcfSimulate } : null,
  terminationGracePeriodDuration: 'PT45S',
});

describeKube('tasks on the kubernetes driver (shared kube-apiserver)', () => {
  const k = driverPerTest({ pollMs: 300 });
  let jobs: { dispose(): Promise<void> };
  beforeEach(async () => {
    const c = jobController(k.client, `${CLUSTER_LABEL}=${k.clusterId}`, () => {});
    await c.watcher.synced;
    jobs = c;
  });
  afterEach(() => jobs.dispose());

  const ns = (t: RunTaskMessage) => `nvcf-${t.clusterId}-${t.taskId}`;
  const jobOf = (t: RunTaskMessage) =>
    k.client.get({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'task', namespace: ns(t) } });
  const podsOf = async (t: RunTaskMessage) => (await k.client.list('v1', 'Pod', { namespace: ns(t) })).items;
  const gone = (t: RunTaskMessage) =>
    waitFor(
      async () => !(await k.client.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns(t) } })),
      20_000,
      `namespace ${ns(t)} gone`,
    );

  /** runs the task, recording the Job as it was when the driver called `running` */
  const run = async (t: RunTaskMessage, signal = never()) => {
    const seen: { job?: KubeObject | null; pods?: KubeObject[] } = {};
    const exit = await k.driver.runTask!(t, signal, async () => {
      seen.job = await jobOf(t);
      seen.pods = await podsOf(t);
    });
    return { exit, seen };
  };

  it('a container task is a Job in a namespace of its own: RUNNING with its pod running, COMPLETED on Complete, then removed', async () => {
    const t = task(k.clusterId, container(), { runMs: 800 });
    const { exit, seen } = await run(t);
    expect(exit).toEqual({ exitCode: 0, message: null });
    const job = seen.job!;
    expect(job.metadata.labels).toMatchObject({
      [CLUSTER_LABEL]: k.clusterId,
      'nvcf.nvidia.com/task-id': t.taskId,
      'nvcf.nvidia.com/nca-id': 'nca-a',
    });
    expect(job.spec).toMatchObject({
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 45,
          containers: [
            {
              image: 'nvcr.io/nca-a/eval:1',
              args: ['--epochs', '1'],
              env: [{ name: 'MODE', value: 'eval' }],
              // a run message from before ICMS counted GPUs: one
              resources: { limits: { 'nvidia.com/gpu': '1' } },
            },
          ],
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
    });
    // a run message without node labels (the record names none, or it predates them): any GPU node
    expect(job.spec).not.toHaveProperty('template.spec.nodeSelector');
    expect(job.status).toMatchObject({ ready: 1 });
    expect(seen.pods!.map((p) => p.status?.phase)).toEqual(['Running']);
    await gone(t);
  }, 30_000);

  it('a container task requests the GPUs of its instance type, and its pod gets them', async () => {
    const t = { ...task(k.clusterId, container(), { runMs: 300 }), instanceType: 'gl40s_2.br25_4xlarge', gpuCount: 2 };
    const { exit, seen } = await run(t);
    expect(exit).toEqual({ exitCode: 0, message: null });
    const gpus = { 'nvidia.com/gpu': '2' };
    expect(seen.job!.spec).toMatchObject({ template: { spec: { containers: [{ resources: { limits: gpus } }] } } });
    // the API server takes the limit of an extended resource as its request too, which the scheduler places by
    expect(seen.pods!.map((p) => (p.spec as { containers: { resources: unknown }[] }).containers[0].resources)).toEqual(
      [{ limits: gpus, requests: gpus }],
    );
    await gone(t);
  }, 30_000);

  it("a container task's pod goes to its instance type's nodes, tolerating the GPU nodes' taint, and completes", async () => {
    const nodes = {
      'node.kubernetes.io/instance-type': 'p5.48xlarge',
      'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3',
    };
    const t = { ...task(k.clusterId, container(), { runMs: 300 }), gpuCount: 8, nodeSelector: nodes };
    const { exit, seen } = await run(t);
    expect(exit).toEqual({ exitCode: 0, message: null });
    const placement = {
      nodeSelector: nodes,
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    };
    expect(seen.job!.spec).toMatchObject({ template: { spec: placement } });
    // the pod keeps both, which the scheduler places by (admission adds tolerations of its own)
    expect(seen.pods!.map((p) => p.spec)).toEqual([
      expect.objectContaining({ nodeSelector: nodes, tolerations: expect.arrayContaining(placement.tolerations) }),
    ]);
    await gone(t);
  }, 30_000);

  it('a Job an agent of another version made is followed as it is, not made again (its pod template is immutable)', async () => {
    const t = {
      ...task(k.clusterId, container(), { runMs: 1500 }),
      nodeSelector: { 'nvidia.com/gpu.product': 'L40S' },
    };
    // what an agent from before node selection made: no selector, no toleration
    const older = taskJob(ns(t), { ...t, nodeSelector: undefined }, container());
    delete (older.spec as { template: { spec: { tolerations?: unknown } } }).template.spec.tolerations;
    await k.client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: taskMetadata(ns(t), t) }, FIELD_MANAGER);
    const uid = (await k.client.apply(older, FIELD_MANAGER)).metadata.uid;
    const { exit, seen } = await run(t);
    expect(exit).toEqual({ exitCode: 0, message: null });
    expect(seen.job?.metadata.uid).toBe(uid);
    expect(seen.job!.spec).not.toHaveProperty('template.spec.nodeSelector');
    await gone(t);
  }, 30_000);

  it("a failing container task ends with the exit code its Job's Failed condition names", async () => {
    const t = task(k.clusterId, container(), { runMs: 300, exitCode: 3, message: 'loss diverged' });
    const { exit } = await run(t);
    expect(exit.exitCode).toBe(3);
    expect(exit.message).toMatch(
      /^Container task for pod nvcf-.+ failed with exit code 3 matching FailJob rule at index 0$/,
    );
    await gone(t);
  }, 30_000);

  it('a stop mid-run deletes the Job with its pods (Foreground) and the namespace, and rejects', async () => {
    const t = task(k.clusterId, container(), { runMs: 60_000 });
    const ctl = new AbortController();
    let pods: KubeObject[] = [];
    const running = k.driver.runTask!(t, ctl.signal, async () => {
      pods = await podsOf(t);
      ctl.abort(new Error('task CANCELED'));
    });
    await expect(running).rejects.toThrow('task CANCELED');
    expect(pods).toHaveLength(1);
    // the stop waited for the Job (its pods first) and the namespace: nothing is left when it returns
    expect(await jobOf(t)).toBeNull();
    expect(await podsOf(t)).toEqual([]);
    expect(await k.client.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns(t) } })).toBeNull();
  }, 30_000);

  it('a stop for a task this agent does not run removes what a run under another agent left', async () => {
    const t = task(k.clusterId, container(), { runMs: 60_000 });
    let runningNow!: () => void;
    const started = new Promise<void>((r) => (runningNow = r));
    // the predecessor ran the task and is gone: nothing stops its run but the Job's end
    const predecessor = createKubernetesDriver({ clusterId: k.clusterId, client: k.client, registry, pollMs: 300 });
    const orphan = predecessor.runTask!(t, never(), async () => runningNow()).then(
      () => 'ended',
      (err: Error) => err.message,
    );
    await started;
    await k.driver.removeTask!(t.taskId);
    expect(await jobOf(t)).toBeNull();
    expect(await podsOf(t)).toEqual([]);
    expect(await k.client.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns(t) } })).toBeNull();
    expect(await orphan).toMatch(/deleted while it ran/);
    await predecessor.dispose();
  }, 30_000);

  it("an agent's stop leaves the Job running; its successor finds it (runsTask) and follows it to its end", async () => {
    const t = task(k.clusterId, container(), { runMs: 3000 });
    const ctl = new AbortController();
    let uid: string | undefined;
    const predecessor = createKubernetesDriver({ clusterId: k.clusterId, client: k.client, registry, pollMs: 300 });
    const first = predecessor.runTask!(t, ctl.signal, async () => {
      uid = (await jobOf(t))?.metadata.uid;
      ctl.abort(new AgentStopped('the agent stopped while it ran'));
    });
    await expect(first).rejects.toThrow('the agent stopped while it ran');
    await predecessor.dispose();
    // left for the next agent, not removed as a stop would remove it
    expect((await jobOf(t))?.metadata.uid).toBe(uid);
    expect(await k.driver.runsTask!(t.taskId)).toBe(true);
    expect(await k.driver.runsTask!(randomUUID())).toBe(false);
    const { exit, seen } = await run(t);
    expect(exit).toEqual({ exitCode: 0, message: null });
    // the same Job, followed rather than made again
    expect(seen.job?.metadata.uid).toBe(uid);
    await gone(t);
  }, 30_000);

  it("an operator task (a NIMCache) is a MiniService in operator mode: COMPLETED by the registry's complete rule", async () => {
    const t = task(k.clusterId, nimCache());
    let seen: unknown[] = [];
    const exit = await k.driver.runTask!(t, never(), async () => {
      const ms = await k.client.get({ ...MINISERVICE, metadata: { name: ns(t) } });
      const caches = (await k.client.list('apps.nvidia.com/v1alpha1', 'NIMCache', { namespace: ns(t) })).items;
      // the agent may read the cache complete before the controller has written the MiniService's phase
      seen = [ms?.spec?.operatorTypes, caches.map((c) => [c.metadata.name, c.status?.state])];
    });
    expect(exit).toEqual({ exitCode: 0, message: null });
    expect(seen).toEqual([['nim'], [['llama-cache', 'Ready']]]);
    await gone(t);
  }, 30_000);

  it("an operator task whose object fails ends ERRORED with the operator's message", async () => {
    const failed = {
      state: 'Failed',
      conditions: [{ type: 'Failed', status: 'True', reason: 'PullFailed', message: 'model not found' }],
    };
    const t = task(k.clusterId, nimCache({ [SIM_ANNOTATION.status]: JSON.stringify(failed) }));
    let ran = false;
    const exit = await k.driver.runTask!(t, never(), async () => void (ran = true));
    expect(ran).toBe(false); // it never ran: no RUNNING before its end
    expect(exit.exitCode).toBe(1);
    expect(exit.message).toContain('model not found');
    await gone(t);
  }, 30_000);

  it("a Helm task runs as its chart's MiniService until stopped; the stop removes it", async () => {
    const t = task(k.clusterId, helm({ replicas: 1 }));
    const ctl = new AbortController();
    let phase: string | undefined;
    const running = k.driver.runTask!(t, ctl.signal, async () => {
      phase = (await k.client.get({ ...MINISERVICE, metadata: { name: ns(t) } }))?.status?.phase;
      ctl.abort(new Error('task EXCEEDED_MAX_RUNTIME'));
    });
    await expect(running).rejects.toThrow('task EXCEEDED_MAX_RUNTIME');
    expect(phase).toBe('Running');
    expect(await k.client.get({ ...MINISERVICE, metadata: { name: ns(t) } })).toBeNull();
  }, 30_000);
});

/**
 * Tasks end to end on the Kubernetes driver: nvct queues them, ICMS places them, the agents run
 * them on the shared kube-apiserver (a container task as a Job, an operator task as a MiniService
 * in operator mode) and report through NvctTaskReportStream. The Job controller is this file's
 * own (test/services/cluster-sim), for the clusters of its system: the shared simulator may
 * predate it; the MiniService controller and the operators are the shared simulator's.
 */
import { waitUntil } from '@nvcf/testing';
import { jobController } from '../services/cluster-sim/index.js';
import { cleanupKube, describeKubernetes, startKubeSystem, type KubeSystem } from './suites/kubernetes.js';

interface TaskView {
  status: string;
  message: string | null;
  events: { status: string; message: string | null }[];
}

describeKubernetes('tasks on the Kubernetes driver on NATS JetStream and Cassandra', () => {
  let k: KubeSystem;
  let jobs: { dispose(): Promise<void> } | undefined;
  beforeAll(async () => {
    k = await startKubeSystem();
    const c = jobController(
      k.client,
      `nvcf.nvidia.com/cluster-id in (${k.system.clusters.map((c) => c.id).join(',')})`,
      () => {},
    );
    jobs = c;
    await c.watcher.synced;
  }, 180_000);
  afterAll(async () => {
    await jobs?.dispose();
    await k?.system.dispose();
    if (k) await cleanupKube(k.client, k.system);
  });

  const gql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(k.system.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: T; errors?: { message: string }[] };
  };
  const create = async (input: Record<string, unknown>) => {
    const r = await gql<{ createTask: { id: string } }>(
      'mutation ($input: CreateTaskInput!) { createTask(input: $input) { id } }',
      { input },
    );
    expect(r.errors).toBeUndefined();
    return r.data!.createTask.id;
  };
  const container = (nvcfSimulate: Record<string, unknown>) => ({
    name: 'eval',
    container: { image: 'nvcr.io/nca-a/eval:1', args: ['--steps', '10'] },
    gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
    maxRuntimeDuration: 'PT1H',
    terminationGracePeriodDuration: 'PT5S',
    configuration: { nvcfSimulate },
  });
  const reaches = (id: string, status: string, timeoutMs = 30_000) =>
    waitUntil<TaskView | null>(
      async () => {
        const r = await gql<{ task: TaskView | null }>(
          'query ($id: ID!) { task(id: $id) { status message events { status message } } }',
          { id },
        );
        return r.data?.task?.status === status ? r.data.task : null;
      },
      { timeoutMs, what: `task ${id} ${status}` },
    );
  /** the task's objects of a kind, in whichever cluster's namespace they are */
  const objects = async (apiVersion: string, kind: string, id: string) =>
    (await k.client.list(apiVersion, kind, { labelSelector: `nvcf.nvidia.com/task-id=${id}` })).items;
  const removed = (id: string) =>
    waitUntil(
      async () =>
        !(await objects('v1', 'Namespace', id)).length &&
        !(await objects('batch/v1', 'Job', id)).length &&
        !(await objects('v1', 'Pod', id)).length,
      { timeoutMs: 30_000, what: `task ${id}: its namespace, Job and pods gone` },
    );

  it('a container task runs as a Job to COMPLETED, through every state, and leaves nothing behind', async () => {
    const id = await create(container({ runMs: 1500 }));
    await reaches(id, 'RUNNING');
    const [job] = await objects('batch/v1', 'Job', id);
    expect(job?.spec?.template?.spec).toMatchObject({ terminationGracePeriodSeconds: 5, restartPolicy: 'Never' });
    const done = await reaches(id, 'COMPLETED');
    expect(done.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    await removed(id);
  }, 60_000);

  it("a container task's Job goes to the nodes the cluster record labels for its instance type, and completes", async () => {
    // only the demo's us-west-l40s offers the 2-GPU L40S instance type, and names its nodes' labels
    const task = container({ runMs: 300 });
    const id = await create({ ...task, gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_2.br25_4xlarge' } });
    await reaches(id, 'RUNNING');
    const [job] = await objects('batch/v1', 'Job', id);
    expect(job?.spec?.template?.spec).toMatchObject({
      nodeSelector: { 'nvidia.com/gpu.product': 'NVIDIA-L40S', 'nvidia.com/gpu.count': '2' },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [{ resources: { limits: { 'nvidia.com/gpu': '2' } } }],
    });
    await reaches(id, 'COMPLETED');
    await removed(id);
  }, 60_000);

  it("a failing container task ends ERRORED with the message of its Job's Failed condition", async () => {
    const id = await create(container({ runMs: 300, exitCode: 3, message: 'loss diverged' }));
    const failed = await reaches(id, 'ERRORED');
    expect(failed.message).toMatch(/failed with exit code 3 matching FailJob rule/);
    expect(failed.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'ERRORED']);
    await removed(id);
  }, 60_000);

  it('cancelTask mid-run: the agent deletes the Job, its pod and the namespace', async () => {
    const id = await create(container({ runMs: 600_000 }));
    await reaches(id, 'RUNNING');
    expect((await objects('v1', 'Pod', id)).map((p) => p.status?.phase)).toEqual(['Running']);
    const canceled = await gql<{ cancelTask: { status: string } }>(
      'mutation ($id: ID!) { cancelTask(id: $id) { status } }',
      { id },
    );
    expect(canceled.data!.cancelTask.status).toBe('CANCELED');
    await removed(id);
    expect((await reaches(id, 'CANCELED')).events.at(-1)?.status).toBe('CANCELED');
  }, 60_000);

  it('an operator task (a NIMCache warm-up) runs as an operator-mode MiniService to COMPLETED', async () => {
    const id = await create({
      name: 'warmup',
      operator: {
        operatorTypes: ['nim'],
        manifests: [
          {
            apiVersion: 'apps.nvidia.com/v1alpha1',
            kind: 'NIMCache',
            metadata: { name: 'llama-cache' },
            spec: { source: { ngc: { modelPuller: 'nvcr.io/nim/llama:1.0' } } },
          },
        ],
      },
      gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
    });
    const done = await reaches(id, 'COMPLETED');
    expect(done.events.map((e) => e.status)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    await waitUntil(async () => !(await objects('v1', 'Namespace', id)).length, {
      timeoutMs: 30_000,
      what: `task ${id}: its namespace gone`,
    });
  }, 60_000);
});

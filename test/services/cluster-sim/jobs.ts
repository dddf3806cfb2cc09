/**
 * The Job controller, the kubelet and the garbage collector of a cluster that has none, for
 * the Jobs of NVCF tasks: a Job gets one pod, which runs (Running, ready) for the annotation's
 * `runMs` (default 1000), then succeeds (Complete) or, with a non-zero `exitCode`, fails: the
 * pod terminates with `message` as its termination message and the Job is Failed, as a pod
 * failure policy fails it, naming the exit code. Deleting a Job (Foreground) takes its pods.
 */
import { KubeApiError, startWatch, type KubeClient, type KubeObject } from '@nvcf/agent/kubernetes';
import { SIM_ANNOTATION } from '@nvcf/operators';
import { applyStatus, objectKey, type Controller } from './controller.js';
import { Steps } from './timers.js';

interface SimulateTask {
  runMs?: number;
  exitCode?: number;
  message?: string;
}

const MANAGER = 'nvcf-sim-job-controller';
const KUBELET = 'nvcf-sim-kubelet';
const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const FOREGROUND = 'foregroundDeletion';

const simulateOf = (job: KubeObject): SimulateTask => {
  try {
    const s: unknown = JSON.parse(job.metadata.annotations?.[SIM_ANNOTATION.task] ?? '{}');
    return typeof s === 'object' && s !== null ? s : {};
  } catch {
    return {};
  }
};
const conditions = (job: KubeObject) => (job.status?.conditions ?? []) as { type: string; status: string }[];
const ended = (job: KubeObject) =>
  conditions(job).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
const condition = (type: string, reason: string, message: string, at: string) => ({
  type,
  status: 'True',
  reason,
  message,
  lastProbeTime: at,
  lastTransitionTime: at,
});

export function jobController(client: KubeClient, labelSelector: string, log: (m: string) => void): Controller {
  const steps = new Steps(log);
  const started = new Set<string>();

  // a merge patch keeps what it does not name (startTime, which the API server will not see removed)
  const jobStatus = (job: KubeObject, status: object) =>
    client.mergePatch(
      { ...JOB, metadata: { name: job.metadata.name, namespace: job.metadata.namespace } },
      { status },
      MANAGER,
      'status',
    );

  const podsOf = async (job: KubeObject) =>
    (
      await client.list(POD.apiVersion, POD.kind, {
        namespace: job.metadata.namespace,
        labelSelector: `batch.kubernetes.io/job-name=${job.metadata.name}`,
      })
    ).items.map((p) => ({ ...p, ...POD }));

  const deletePods = async (job: KubeObject) => {
    for (const pod of await podsOf(job)) await client.delete(pod, { gracePeriodSeconds: 0 });
  };

  /** the default ServiceAccount, which the API server's admission wants before it takes a pod */
  const serviceAccount = async (namespace: string) => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } };
    if (!(await client.get(sa))) await client.apply(sa, MANAGER);
  };

  const run = async (job: KubeObject) => {
    const namespace = job.metadata.namespace!;
    const sim = simulateOf(job);
    const template = (job.spec?.template ?? {}) as { metadata?: { labels?: Record<string, string> }; spec?: object };
    let [pod]: (KubeObject | undefined)[] = await podsOf(job); // a restarted simulator finds the pod it made
    if (!pod) {
      await serviceAccount(namespace);
      pod = await client.apply(
        {
          ...POD,
          metadata: {
            // named by the Job's uid: two controllers of one cluster (a test's and the simulator's) make one pod
            name: `${job.metadata.name}-${job.metadata.uid!.slice(0, 8)}`,
            namespace,
            labels: {
              ...template.metadata?.labels,
              'batch.kubernetes.io/job-name': job.metadata.name!,
              'batch.kubernetes.io/controller-uid': job.metadata.uid!,
            },
            ownerReferences: [
              {
                ...JOB,
                name: job.metadata.name!,
                uid: job.metadata.uid!,
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          },
          spec: template.spec,
        },
        MANAGER,
      );
    }
    const podRef = { ...POD, metadata: { name: pod.metadata.name, namespace } };
    const startTime = new Date().toISOString();
    await applyStatus(
      client,
      { ...podRef },
      {
        phase: 'Running',
        startTime,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: startTime }],
        containerStatuses: [
          {
            name: 'task',
            image: 'sim',
            imageID: '',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: startTime } },
          },
        ],
      },
      KUBELET,
    );
    await jobStatus(job, { startTime, active: 1, ready: 1 });
    steps.after(`${objectKey(job)}@end`, sim.runMs ?? 1000, async () => {
      const cur = await client.get(job);
      if (!cur || cur.metadata.deletionTimestamp || ended(cur)) return;
      const exitCode = sim.exitCode ?? 0;
      const at = new Date().toISOString();
      await applyStatus(
        client,
        podRef,
        {
          phase: exitCode === 0 ? 'Succeeded' : 'Failed',
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at }],
          containerStatuses: [
            {
              name: 'task',
              image: 'sim',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: {
                terminated: {
                  exitCode,
                  reason: exitCode === 0 ? 'Completed' : 'Error',
                  ...(sim.message ? { message: sim.message } : {}),
                  startedAt: startTime,
                  finishedAt: at,
                },
              },
            },
          ],
        },
        KUBELET,
      );
      if (exitCode === 0) {
        const why = 'Reached expected number of succeeded pods';
        await jobStatus(job, {
          completionTime: at,
          active: 0,
          ready: 0,
          succeeded: 1,
          conditions: [
            condition('SuccessCriteriaMet', 'CompletionsReached', why, at),
            condition('Complete', 'CompletionsReached', why, at),
          ],
        });
      } else {
        // the message a pod failure policy's FailJob rule gives the Job (the workload's own is the pod's)
        const why = `Container task for pod ${namespace}/${pod.metadata.name} failed with exit code ${exitCode} matching FailJob rule at index 0`;
        await jobStatus(job, {
          active: 0,
          ready: 0,
          failed: 1,
          conditions: [
            condition('FailureTarget', 'PodFailurePolicy', why, at),
            condition('Failed', 'PodFailurePolicy', why, at),
          ],
        });
      }
    });
  };

  /** the garbage collector's part in a Foreground deletion: the pods go, then the finalizer */
  const foreground = async (job: KubeObject) => {
    await deletePods(job);
    const finalizers = job.metadata.finalizers ?? [];
    try {
      await client.mergePatch(job, { metadata: { finalizers: finalizers.filter((f) => f !== FOREGROUND) } }, MANAGER);
    } catch (err) {
      if (!(err instanceof KubeApiError && err.code === 404)) throw err;
    }
  };

  const watcher = startWatch(client, {
    ...JOB,
    labelSelector,
    log,
    onEvent: (type, obj) => {
      const job = { ...obj, ...JOB };
      const key = objectKey(job);
      if (type === 'DELETED') {
        started.delete(key);
        steps.cancel(`${key}@`);
        // Background (or an orphan left by an API server restart): the pods go after their Job
        return steps.after(`${key}#gc`, 0, () => deletePods(job));
      }
      if (job.metadata.deletionTimestamp) {
        steps.cancel(`${key}@`);
        if ((job.metadata.finalizers ?? []).includes(FOREGROUND))
          steps.after(`${key}#foreground`, 0, () => foreground(job));
        return;
      }
      if (ended(job) || started.has(key)) return;
      started.add(key);
      steps.after(`${key}@run`, 0, () => run(job));
    },
  });
  return {
    watcher,
    async dispose() {
      steps.stop();
      await watcher.dispose();
    },
  };
}

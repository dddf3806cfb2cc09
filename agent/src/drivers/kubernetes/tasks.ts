import {
  durationMs,
  type ContainerWorkload,
  type HelmWorkload,
  type OperatorWorkload,
  type RunTaskMessage,
} from '@nvcf/contracts';
import {
  completeOf,
  failureOf,
  LABEL,
  meets,
  nvcfLabels,
  REVISION_ANNOTATION,
  SIM_ANNOTATION,
  taskComplete,
  type KindSpec,
  type OperatorRegistry,
} from '@nvcf/operators';
import { PermanentFailure, TemporaryFailure, type DesiredInstance, type TaskExit } from '../../driver.js';
import { AgentStopped } from '../../tasks.js';
import { operatorVerdict, type ObservedOperatorStatus } from '../../operator-phases.js';
import type { KubeClient, KubeObject, ObjectRef } from './client.js';
import { miniService, miniServiceReady, statusAt } from './helm.js';
import { CLUSTER_LABEL, FIELD_MANAGER, JOB, MINISERVICE, NAMESPACE, TASK_LABEL, type InstanceNames } from './names.js';
import { checkKinds, requireCrds } from './operator.js';
import { operatorMiniService } from './operator-mode.js';

/**
 * A container task's Job in the registry's terms, so that one reading of status serves Jobs and
 * operators' objects: running once a pod is ready, done on Complete, failed on Failed.
 */
export const JOB_KIND: KindSpec = {
  ...JOB,
  ready: { path: 'status.ready', values: [], atLeast: 1 },
  complete: [{ condition: { type: 'Complete', status: 'True' } }],
  failed: [{ condition: { type: 'Failed', status: 'True' } }],
};
/** one Job per task namespace */
export const TASK_JOB_NAME = 'task';
/** the extended resource NVIDIA's device plugin advertises */
export const GPU_RESOURCE = 'nvidia.com/gpu';
/** the usual taint of GPU nodes (the GPU operator's, the clouds' GPU node pools), whatever its value */
export const GPU_TOLERATION = { key: GPU_RESOURCE, operator: 'Exists', effect: 'NoSchedule' } as const;

/**
 * The metadata of every object a task's run creates. A task's id is its objects' instance id
 * too: the MiniService controller's operator mode, the driver's watches and whatever operators
 * create for the manifests all find an instance's objects by that label, and a task's the same way.
 */
export function taskMetadata(name: string, t: RunTaskMessage, namespace?: string) {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: {
      ...nvcfLabels({ ncaId: t.ncaId, functionId: '', versionId: '', instanceId: t.taskId, revisionId: t.taskId }),
      [CLUSTER_LABEL]: t.clusterId,
      [TASK_LABEL]: t.taskId,
    },
    annotations: { [REVISION_ANNOTATION]: t.taskId },
  };
}

/** Whole seconds a stopped workload gets (the pod's terminationGracePeriodSeconds). */
export const graceSeconds = (t: RunTaskMessage): number =>
  Math.ceil((durationMs(t.terminationGracePeriodDuration) ?? 30_000) / 1000);

const simulateOf = (t: RunTaskMessage): unknown => t.configuration?.nvcfSimulate;

/**
 * The Job of a container task: one pod, never restarted (nvct does not retry a task), failed
 * at once by any non-zero exit, whose condition then names the exit code; the container's
 * message is its termination message, else the end of its log. It asks for the GPUs of its
 * instance type, as ICMS counted them when it placed the task, on the nodes ICMS's record labels
 * as that instance type's (none named: any node), and tolerates the GPU nodes' taint.
 */
export function taskJob(namespace: string, t: RunTaskMessage, w: ContainerWorkload): KubeObject {
  const meta = taskMetadata(TASK_JOB_NAME, t, namespace);
  const sim = simulateOf(t);
  return {
    ...JOB,
    metadata: {
      ...meta,
      annotations: {
        ...meta.annotations,
        ...(sim !== undefined ? { [SIM_ANNOTATION.task]: JSON.stringify(sim) } : {}),
      },
    },
    spec: {
      backoffLimit: 0,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [0] } }] },
      template: {
        metadata: { labels: meta.labels },
        spec: {
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: graceSeconds(t),
          // the instance type's nodes, as ICMS's cluster record labels them; a GPU count alone
          // would let the pod land on any GPU node pool with that many free
          ...(t.nodeSelector && Object.keys(t.nodeSelector).length ? { nodeSelector: t.nodeSelector } : {}),
          // GPU nodes are commonly tainted so that only pods asking for GPUs go there; this one does
          tolerations: [GPU_TOLERATION],
          containers: [
            {
              name: 'task',
              image: w.image,
              ...(w.args.length ? { args: w.args } : {}),
              env: Object.entries(w.environment).map(([name, value]) => ({ name, value })),
              terminationMessagePolicy: 'FallbackToLogsOnError',
              // the scheduler puts the pod only where that many GPUs are free, and the device plugin
              // hands it those; a limit alone is also the request of an extended resource
              resources: { limits: { [GPU_RESOURCE]: String(t.gpuCount ?? 1) } },
            },
          ],
        },
      },
    },
  };
}

/** A Job's Failed condition names the exit code when a pod failure policy failed it ("… with exit code 3 …"). */
export const exitCodeOf = (message: string | undefined): number => {
  const code = Number(/exit code (\d+)/.exec(message ?? '')?.[1]);
  return Number.isInteger(code) && code > 0 ? code : 1;
};

/** The MiniService of a Helm or operator task: the instance's, with the task's metadata (no instance record). */
function taskMiniService(name: string, namespace: string, t: RunTaskMessage, w: HelmWorkload | OperatorWorkload) {
  const d: DesiredInstance = {
    ncaId: t.ncaId,
    functionId: '',
    versionId: '',
    gpuSpecificationId: '',
    clusterId: t.clusterId,
    instanceId: t.taskId,
    gpu: t.gpu,
    instanceType: t.instanceType,
    revisionId: t.taskId,
    revisionCreatedAt: '',
    workload: w,
  };
  const obj: KubeObject = w.kind === 'helm' ? miniService(name, d, w) : operatorMiniService(name, namespace, d, w);
  // a task serves nothing (nvct sends no service): the CRD still wants a service name, which
  // nothing routes to, and takes no port rather than port 0
  const { servicePort, ...spec } = obj.spec as { serviceName?: string; servicePort?: number };
  return {
    ...obj,
    metadata: { ...obj.metadata, ...taskMetadata(name, t) },
    spec: { ...spec, serviceName: spec.serviceName || TASK_JOB_NAME, ...(servicePort ? { servicePort } : {}) },
  };
}

export interface TaskRunnerContext {
  client: KubeClient;
  registry: OperatorRegistry;
  names: InstanceNames;
  /** starts a watch whose events wake `until` for the objects' instance (here: task) id */
  watch(apiVersion: string, kind: string, labelSelector: string): void;
  /** re-reads on every change until `done` says so (the driver's own loop, with its handling of an API server away) */
  until(id: string, done: () => Promise<boolean>, signal: AbortSignal): Promise<void>;
  /** deletes the objects and waits for them to go, finalizers honoured (RemovalStuck past the driver's timeout) */
  deleteAndWait(refs: ObjectRef[], o?: { propagationPolicy?: 'Foreground' }): Promise<void>;
  log(msg: string): void;
}

/**
 * Tasks on a real cluster, in a namespace of their own: a container task is a Job; a Helm or an
 * operator task is a MiniService, as an instance of it would be (the controller installs the
 * chart, or applies the manifests and writes their status). RUNNING once the Job has a ready
 * pod or the MiniService is Running/Ready; the end from the Job's conditions or, for operator
 * manifests, the registry's `complete` and `failed` rules. A chart has no end the agent can
 * read: a Helm task ends ERRORED when its install fails, else by cancel or its runtime deadline.
 */
export function createTaskRunner(c: TaskRunnerContext) {
  const { client, registry, names } = c;
  const cleanups = new Set<Promise<void>>();
  const nsRef = (taskId: string): ObjectRef => ({ ...NAMESPACE, metadata: { name: names.namespace(taskId) } });
  const msRef = (taskId: string): ObjectRef => ({ ...MINISERVICE, metadata: { name: names.miniService(taskId) } });
  const jobRef = (taskId: string): ObjectRef => ({
    ...JOB,
    metadata: { name: TASK_JOB_NAME, namespace: names.namespace(taskId) },
  });

  /** Everything the run created, gone: the Job first (its pods with it), then the MiniService, then the namespace. */
  const remove = async (taskId: string) => {
    const ns = await client.get(nsRef(taskId));
    if (!ns || ns.metadata.labels?.[TASK_LABEL] !== taskId) return;
    await c.deleteAndWait([jobRef(taskId)], { propagationPolicy: 'Foreground' });
    await c.deleteAndWait([msRef(taskId)]);
    await c.deleteAndWait([nsRef(taskId)]);
  };

  /** Reads until `read` has the end; `running` is called once, when the workload runs (or has already completed). */
  const follow = async (
    t: RunTaskMessage,
    read: () => Promise<{ running: boolean; exit: TaskExit | null }>,
    running: () => Promise<void>,
    signal: AbortSignal,
  ): Promise<TaskExit> => {
    let reported = false;
    let exit: TaskExit | null = null;
    await c.until(
      t.taskId,
      async () => {
        const r = await read();
        // a workload that completed ran, even when no read caught it running; one that failed to
        // start (a refused manifest, a failed install) did not
        if (!reported && (r.running || r.exit?.exitCode === 0)) {
          await running();
          reported = true;
        }
        exit = r.exit;
        return exit !== null;
      },
      signal,
    );
    return exit!;
  };

  const runContainer = async (
    t: RunTaskMessage,
    w: ContainerWorkload,
    signal: AbortSignal,
    running: () => Promise<void>,
  ) => {
    const job = taskJob(names.namespace(t.taskId), t, w);
    c.watch(JOB.apiVersion, JOB.kind, `${CLUSTER_LABEL}=${t.clusterId}`);
    // a Job a predecessor made is followed as it is: its pod template is immutable, and an agent of
    // another version may have made it otherwise (an upgrade while the task ran)
    if (!(await client.get(job))) await client.apply(job, FIELD_MANAGER);
    return follow(
      t,
      async () => {
        const cur = await client.get(job);
        if (!cur)
          throw new PermanentFailure(`Job ${job.metadata.namespace}/${job.metadata.name} was deleted while it ran`);
        const failed = failureOf(cur, JOB_KIND);
        if (failed)
          return {
            running: true,
            exit: { exitCode: exitCodeOf(failed.message), message: failed.message ?? failed.text },
          };
        if (completeOf(cur, JOB_KIND)) return { running: true, exit: { exitCode: 0, message: null } };
        return { running: meets(cur, JOB_KIND.ready), exit: null };
      },
      running,
      signal,
    );
  };

  const runMiniService = async (
    t: RunTaskMessage,
    w: HelmWorkload | OperatorWorkload,
    signal: AbortSignal,
    running: () => Promise<void>,
  ) => {
    const namespace = names.namespace(t.taskId);
    if (w.kind === 'operator') {
      checkKinds(w.manifests, w.operatorTypes, registry);
      await requireCrds(client, registry, t.clusterId, w);
    }
    c.watch(MINISERVICE.apiVersion, MINISERVICE.kind, `${CLUSTER_LABEL}=${t.clusterId}`);
    const completing =
      w.kind === 'operator'
        ? w.manifests.filter(
            (m) => registry.kindOf(String(m.apiVersion), String(m.kind), w.operatorTypes)?.spec.complete?.length,
          )
        : [];
    for (const m of completing) c.watch(String(m.apiVersion), String(m.kind), LABEL.instanceId);
    const obj = taskMiniService(names.miniService(t.taskId), namespace, t, w);
    const applied = await client.apply(obj, FIELD_MANAGER);
    const generation = applied.metadata.generation ?? 0;
    return follow(
      t,
      async () => {
        const cur = await client.get(obj);
        if (w.kind === 'helm') {
          try {
            return { running: miniServiceReady(cur, t.taskId, generation), exit: null };
          } catch (err) {
            if (err instanceof PermanentFailure) return { running: false, exit: { exitCode: 1, message: err.message } };
            // Retrying: the controller's own retry of a failure that may pass; deleted: the end
            if (cur && err instanceof TemporaryFailure) return { running: false, exit: null };
            throw err;
          }
        }
        const status = statusAt<ObservedOperatorStatus & { observedGeneration?: number }>(cur, t.taskId, generation);
        if (!status) return { running: false, exit: null };
        let ready = false;
        try {
          ready = operatorVerdict(status);
        } catch (err) {
          if (err instanceof PermanentFailure) return { running: false, exit: { exitCode: 1, message: err.message } };
          // the operator may get over it (OperatorRetrying): the task waits, as an instance would
        }
        const objects: KubeObject[] = [];
        for (const m of completing) {
          const list = await client.list(String(m.apiVersion), String(m.kind), {
            namespace,
            labelSelector: `${LABEL.instanceId}=${t.taskId}`,
          });
          objects.push(...list.items.map((o) => ({ ...o, apiVersion: String(m.apiVersion), kind: String(m.kind) })));
        }
        // every manifest of a kind that completes must be there and complete, not only those listed
        const done = objects.length >= completing.length && taskComplete(objects, registry);
        return { running: ready || done, exit: done ? { exitCode: 0, message: null } : null };
      },
      running,
      signal,
    );
  };

  /** Removes an ended task's objects in the background: the report of its end need not wait for finalizers. */
  const cleanUp = (taskId: string) => {
    const p: Promise<void> = remove(taskId)
      .catch((err: Error) => c.log(`task ${taskId}: removing its objects failed: ${err.message}`))
      .finally(() => cleanups.delete(p));
    cleanups.add(p);
  };

  return {
    async runTask(t: RunTaskMessage, signal: AbortSignal, running: () => Promise<void>): Promise<TaskExit> {
      const w = t.workload;
      let exit: TaskExit;
      try {
        // the namespace first: it is what a removal looks for, whatever failed after it
        await client.apply({ ...NAMESPACE, metadata: taskMetadata(names.namespace(t.taskId), t) }, FIELD_MANAGER);
        exit =
          w.kind === 'container'
            ? await runContainer(t, w, signal, running)
            : await runMiniService(t, w, signal, running);
      } catch (err) {
        // the agent stopping: the Job or MiniService outlives it, and its next start follows it (runs)
        if (signal.reason instanceof AgentStopped) throw err;
        // stopped (cancel, a deadline): the workload goes, its grace period honoured
        if (signal.aborted)
          await remove(t.taskId).catch((e: Error) =>
            c.log(`task ${t.taskId}: stopped, but its objects remain: ${e.message}`),
          );
        else cleanUp(t.taskId);
        throw err;
      }
      cleanUp(t.taskId);
      return exit;
    },
    /** what a run under another agent left, removed (a stop this agent got for a task it does not run) */
    remove,
    /** whether a run under this agent's predecessor left the task's objects, not being removed: runTask follows them */
    async runs(taskId: string): Promise<boolean> {
      const ns = await client.get(nsRef(taskId));
      return !!ns && ns.metadata.labels?.[TASK_LABEL] === taskId && !ns.metadata.deletionTimestamp;
    },
    /** resolves once the removals under way are done */
    async settled(): Promise<void> {
      await Promise.all([...cleanups]);
    },
  };
}

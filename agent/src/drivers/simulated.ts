import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { durationMs, type InstanceState, type RunTaskMessage } from '@nvcf/contracts';
import { operatorStatus, type OperatorRegistry, type OperatorStatus } from '@nvcf/operators';
import { forgetOperatorStatus, noteOperatorStatus, operatorVerdict } from '../operator-phases.js';
import {
  PermanentFailure,
  TemporaryFailure,
  type ClusterDriver,
  type DesiredInstance,
  type ObservedInstance,
  type TaskExit,
} from '../driver.js';
import { SimulatedOperators, type SimObject } from './sim-operator.js';
import { abortReason } from './reasons.js';

export interface SimulatedClusterOptions {
  clusterId: string;
  startDelayMs?: number;
  updateDelayMs?: number;
  /** operator workloads: the status mapping and what each operator creates */
  registry?: OperatorRegistry;
  /** how long an operator takes to make its secondary objects ready */
  operatorDelayMs?: number;
  /**
   * Keeps the cluster's objects in this JSON file, as a real cluster keeps them in its API
   * server: an agent process that replaces another (a rolling upgrade) finds them there.
   * Without it they live as long as the process.
   */
  stateFile?: string;
}

interface Simulate {
  failure?: 'permanent' | 'temporary';
  failTimes?: number;
  /** delay override for this revision (tests of deadlines) */
  delayMs?: number;
}

const simulateOf = (d: DesiredInstance): Simulate => {
  const values = d.workload.kind === 'helm' ? d.workload.values : {};
  const s = (values as { nvcfSimulate?: unknown }).nvcfSimulate;
  return typeof s === 'object' && s !== null ? s : {};
};

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal));
    };
    // the agent's one signal outlives every apply: a listener left behind per wait would pile up
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** A task's `configuration.nvcfSimulate`: how long it runs, and how it ends (the functions' convention). */
interface SimulateTask {
  runMs?: number;
  exitCode?: number;
  message?: string;
  /** how long the workload takes to exit once stopped (default 0): past the grace period it is killed */
  stopMs?: number;
}

const simulateTaskOf = (t: RunTaskMessage): SimulateTask => {
  const s = t.configuration?.nvcfSimulate;
  return typeof s === 'object' && s !== null ? s : {};
};

/**
 * Where each task the simulated cluster was given is: tests read it to see a stop reach the
 * workload, which exits in its grace period (stopped) or is killed at its end (killed).
 */
export type SimTaskState = 'running' | 'succeeded' | 'failed' | 'stopping' | 'stopped' | 'killed';

/**
 * The embedded cluster: start and update delays, and failures on demand through the
 * Helm values `nvcfSimulate: { failure: "permanent" | "temporary", failTimes: N }`.
 */
export type SimulatedCluster = ClusterDriver & {
  attempts(instanceId: string, revisionId: string): number;
  /** the MiniService of an operator instance, as `kubectl get miniservice -o json` would show it */
  miniService(instanceId: string): SimMiniService | null;
  /** the Kubernetes objects of an operator instance, secondary ones included */
  objects(instanceId: string): SimObject[];
  /** a task's workload on the cluster, or null when it was never run here */
  task(taskId: string): SimTaskState | null;
};

/** An operator instance's MiniService in the simulated cluster: its operator-mode spec and status. */
export interface SimMiniService {
  spec: { operatorTypes: string[]; manifests: Record<string, unknown>[]; manifestMergePatches: unknown[] };
  status: OperatorStatus;
}

export function createSimulatedCluster(opts: SimulatedClusterOptions): SimulatedCluster {
  const { startDelayMs = 50, updateDelayMs = 50 } = opts;
  const operators = opts.registry
    ? new SimulatedOperators(opts.registry, {
        primaryMs: startDelayMs,
        secondaryMs: opts.operatorDelayMs ?? startDelayMs * 2,
      })
    : undefined;
  const objects = loadState(opts.stateFile);
  const attempts = new Map<string, number>();
  const miniServices = new Map<string, SimMiniService>();
  const tasks = new Map<string, SimTaskState>();
  const save = () => {
    if (opts.stateFile) saveState(opts.stateFile, objects);
  };

  const driver = {
    clusterId: opts.clusterId,
    attempts: (instanceId: string, revisionId: string) => attempts.get(`${instanceId}/${revisionId}`) ?? 0,
    objects: (instanceId: string) => structuredClone(operators?.byInstance(instanceId) ?? []),
    miniService: (instanceId: string) => structuredClone(miniServices.get(instanceId) ?? null),
    task: (taskId: string) => tasks.get(taskId) ?? null,
    async runTask(t: RunTaskMessage, signal: AbortSignal, running: () => Promise<void>): Promise<TaskExit> {
      const sim = simulateTaskOf(t);
      tasks.set(t.taskId, 'running');
      await running();
      try {
        await wait(sim.runMs ?? 1000, signal);
      } catch (err) {
        // as a kubelet stops a pod: the workload gets terminationGracePeriodDuration to exit
        const graceMs = durationMs(t.terminationGracePeriodDuration) ?? 30_000;
        const stopMs = sim.stopMs ?? 0;
        tasks.set(t.taskId, 'stopping');
        await new Promise((r) => setTimeout(r, Math.min(stopMs, graceMs)));
        tasks.set(t.taskId, stopMs > graceMs ? 'killed' : 'stopped');
        throw err;
      }
      const exitCode = sim.exitCode ?? 0;
      tasks.set(t.taskId, exitCode === 0 ? 'succeeded' : 'failed');
      return { exitCode, message: sim.message ?? null };
    },
    async observe(instanceId: string) {
      const o = objects.get(instanceId);
      return o ? structuredClone(o) : null;
    },
    async apply(desired: DesiredInstance, signal: AbortSignal) {
      const cur = objects.get(desired.instanceId);
      if (cur?.readyRevisionId === desired.revisionId) return; // same revision: nothing to do
      const key = `${desired.instanceId}/${desired.revisionId}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      const sim = simulateOf(desired);
      if (sim.failure === 'permanent')
        throw new PermanentFailure(`values rejected by the chart (nvcfSimulate permanent failure, attempt ${n})`);
      if (sim.failure === 'temporary' && n <= (sim.failTimes ?? 1))
        throw new TemporaryFailure(
          `worker not ready yet (nvcfSimulate temporary failure ${n} of ${sim.failTimes ?? 1})`,
        );
      // the object exists from the first apply on; readiness follows after the delay
      objects.set(desired.instanceId, {
        desired,
        readyRevisionId: cur?.readyRevisionId ?? null,
        reportedState: cur?.reportedState ?? null,
        lastClock: cur?.lastClock ?? 0,
      });
      save();
      if (desired.workload.kind === 'operator') {
        if (!operators) throw new PermanentFailure('this cluster runs no operators');
        const w = desired.workload;
        operators.apply(desired, w);
        // ready only when every applied object and every object its operator created is, as
        // the MiniService's status says (the same status the controller writes on an API server)
        for (;;) {
          const status = operatorStatus(operators.observation(desired.instanceId));
          miniServices.set(desired.instanceId, {
            spec: { operatorTypes: w.operatorTypes, manifests: w.manifests, manifestMergePatches: [] },
            status,
          });
          noteOperatorStatus(desired.instanceId, w.operatorTypes, status);
          if (operatorVerdict(status)) break;
          await wait(10, signal);
        }
      } else await wait(sim.delayMs ?? (cur ? updateDelayMs : startDelayMs), signal);
      const o = objects.get(desired.instanceId);
      if (o) {
        o.desired = desired;
        o.readyRevisionId = desired.revisionId;
        save();
      }
    },
    async noteReported(instanceId: string, state: InstanceState, clock: number) {
      const o = objects.get(instanceId);
      if (o) {
        o.reportedState = state;
        o.lastClock = clock;
        save();
      }
    },
    async remove(instanceId: string) {
      miniServices.delete(instanceId);
      forgetOperatorStatus(instanceId);
      objects.delete(instanceId);
      save();
      operators?.remove(instanceId);
    },
    async dispose() {},
    async [Symbol.asyncDispose]() {},
  };
  return driver;
}

function loadState(file: string | undefined): Map<string, ObservedInstance> {
  if (!file || !existsSync(file)) return new Map();
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, ObservedInstance>));
}

// written whole and renamed into place: a process killed mid-write leaves the previous state, never half of one
function saveState(file: string, objects: Map<string, ObservedInstance>) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(Object.fromEntries(objects)));
  renameSync(tmp, file);
}

import type { InstanceState } from '@nvcf/messaging';
import { PermanentFailure, TemporaryFailure, type ClusterDriver, type DesiredInstance, type ObservedInstance } from '../driver.js';

export interface SimulatedClusterOptions {
  clusterId: string;
  startDelayMs?: number;
  updateDelayMs?: number;
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
  return typeof s === 'object' && s !== null ? (s as Simulate) : {};
};

const wait = (ms: number, signal: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal.aborted) return reject(signal.reason);
  const t = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
});

/**
 * The embedded cluster: start and update delays, and failures on demand through the
 * Helm values `nvcfSimulate: { failure: "permanent" | "temporary", failTimes: N }`.
 */
export function createSimulatedCluster(opts: SimulatedClusterOptions): ClusterDriver & { attempts(instanceId: string, revisionId: string): number } {
  const { startDelayMs = 50, updateDelayMs = 50 } = opts;
  const objects = new Map<string, ObservedInstance>();
  const attempts = new Map<string, number>();

  const driver = {
    clusterId: opts.clusterId,
    attempts: (instanceId: string, revisionId: string) => attempts.get(`${instanceId}/${revisionId}`) ?? 0,
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
      if (sim.failure === 'permanent') throw new PermanentFailure(`values rejected by the chart (nvcfSimulate permanent failure, attempt ${n})`);
      if (sim.failure === 'temporary' && n <= (sim.failTimes ?? 1)) throw new TemporaryFailure(`worker not ready yet (nvcfSimulate temporary failure ${n} of ${sim.failTimes ?? 1})`);
      // the object exists from the first apply on; readiness follows after the delay
      objects.set(desired.instanceId, { desired, readyRevisionId: cur?.readyRevisionId ?? null, reportedState: cur?.reportedState ?? null, lastClock: cur?.lastClock ?? 0 });
      await wait(sim.delayMs ?? (cur ? updateDelayMs : startDelayMs), signal);
      const o = objects.get(desired.instanceId);
      if (o) { o.desired = desired; o.readyRevisionId = desired.revisionId; }
    },
    async noteReported(instanceId: string, state: InstanceState, clock: number) {
      const o = objects.get(instanceId);
      if (o) { o.reportedState = state; o.lastClock = clock; }
    },
    async remove(instanceId: string) {
      objects.delete(instanceId);
    },
    async dispose() {},
    async [Symbol.asyncDispose]() {},
  };
  return driver;
}

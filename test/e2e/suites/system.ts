import type { System, SystemOptions } from '@nvcf/local';

/** How a suite gets a system: the embedded default, or the same system on real backends. */
export type MakeSystem = (overrides?: SystemOptions) => Promise<System>;

/** Options every cross-service suite uses: fast simulated clusters, short deadlines and backoff. */
export const fast: SystemOptions = {
  sim: { startDelayMs: 20, updateDelayMs: 20 },
  agentBackoff: { initialMs: 20, maxMs: 100, factor: 2 },
  revisionDeadlineMs: 4000,
  deadlineSweepMs: 100,
};

/** The demo cluster with operator support, and the one without (ids differ per test system). */
export const operatorCluster = (s: System) => s.clusters.find((c) => c.attributes.includes('NIMOperatorSupport'))!.id;
export const plainCluster = (s: System) => s.clusters.find((c) => !c.attributes.length)!.id;

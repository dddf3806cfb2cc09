/**
 * The in-cluster controllers NVCF does not own, for an API server that runs none: the
 * MiniService controller (its operator mode is the real one, startOperatorMode), the NIM and
 * Dynamo operators (with their Deployments), the namespace controller, and the Job controller
 * (with the kubelet and garbage collector's part) for tasks. Started by `services:up -- kubernetes` (main.ts) or in process by tests.
 */
import { CLUSTER_LABEL, startOperatorMode, type KubeClient, type OperatorModeController } from '@nvcf/agent/kubernetes';
import { defaultRegistryPath, loadRegistry } from '@nvcf/operators';
import type { Controller } from './controller.js';
import { jobController } from './jobs.js';
import { miniServiceController, type MiniServiceDelays } from './miniservices.js';
import { namespaceController } from './namespaces.js';
import { operatorControllers, type OperatorDelays } from './operators.js';

export type ClusterSimDelays = MiniServiceDelays & OperatorDelays;
export const defaultSimDelays: ClusterSimDelays = { installMs: 800, updateMs: 800, operatorMs: 500, secondaryMs: 1000 };

export interface ClusterSimOptions {
  client: KubeClient;
  delays?: Partial<ClusterSimDelays>;
  /** which objects to play controller for; default: every object an NVCF agent applied */
  labelSelector?: string;
  log?: (msg: string) => void;
}

export interface ClusterSim extends AsyncDisposable {
  /** resolves once every watch has listed what exists */
  synced: Promise<void>;
  controllers: Controller[];
  operatorMode: OperatorModeController;
  dispose(): Promise<void>;
}

export function startClusterSim(o: ClusterSimOptions): ClusterSim {
  const delays = { ...defaultSimDelays, ...o.delays };
  const selector = o.labelSelector ?? CLUSTER_LABEL;
  const log = o.log ?? (() => {});
  const controllers = [
    miniServiceController(o.client, delays, selector, log),
    ...operatorControllers(o.client, delays, selector, log),
    namespaceController(o.client, selector, log),
    jobController(o.client, selector, log),
  ];
  const operatorMode = startOperatorMode({
    client: o.client,
    registry: loadRegistry(defaultRegistryPath()),
    labelSelector: selector,
    log,
  });
  const dispose = async () => {
    await Promise.all([...controllers.map((c) => c.dispose()), operatorMode.dispose()]);
  };
  return {
    controllers,
    operatorMode,
    synced: Promise.all([...controllers.map((c) => c.watcher.synced), operatorMode.synced]).then(() => {}),
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

export { jobController } from './jobs.js';

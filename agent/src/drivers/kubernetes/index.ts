export { createKubernetesDriver } from './driver.js';
export type { KubernetesDriver, KubernetesDriverOptions } from './driver.js';
export { createKubeClient, loadKubeConfig } from './client.js';
export type { KubeClient, KubeObject, KubeList, ObjectRef } from './client.js';
export { startWatch } from './watcher.js';
export type { Watcher, WatchOptions, WatchEventType } from './watcher.js';
export { KubeApiError, classify } from './errors.js';
export {
  CLUSTER_LABEL,
  FIELD_MANAGER,
  JOB,
  MINISERVICE,
  RECORD,
  TASK_LABEL,
  dnsLabel,
  instanceNames,
} from './names.js';
export { instanceNamespace } from './operator.js';
export type { MiniServicePhase } from './helm.js';
export {
  startOperatorMode,
  operatorMiniService,
  isOperatorMode,
  OPERATOR_MODE_MANAGER,
  OPERATOR_FINALIZER,
} from './operator-mode.js';
export type { OperatorModeController, OperatorModeOptions, OperatorMiniServiceSpec } from './operator-mode.js';

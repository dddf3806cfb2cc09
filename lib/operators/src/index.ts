export {
  loadRegistry,
  checkRegistryFile,
  rbacFindings,
  failureFindings,
  completeFindings,
  crdName,
  defaultRegistryPath,
  RegistryRejected,
} from './registry.js';
export type {
  OperatorRegistry,
  OperatorType,
  KindSpec,
  ReadyRule,
  RbacRule,
  FailureRule,
  CompleteRule,
} from './registry.js';
export { mergePatch, mergeManifestPatches, ManifestPatchRejected } from './merge-patch.js';
export { injectIdentity, nvcfLabels, ENV, LABEL, REVISION_ANNOTATION, SIM_ANNOTATION } from './labels.js';
export type { NvcfIdentity } from './labels.js';
export { meets, notReady, kindSpecOf, failureOf, failures, completeOf, taskComplete } from './readiness.js';
export type { Failure } from './readiness.js';
export { at, pathError } from './paths.js';
export { field, isList, isRecord, show } from './values.js';
export type { Obj } from './values.js';
export { validateManifests } from './manifests.js';
export { checkWorkloadInput, checkHelm } from './workload-input.js';
export type { WorkloadInput, CheckedWorkload } from './workload-input.js';
export { operatorStatus, parseReadiness, READY_REASON } from './status.js';
export type { OperatorPhase, OperatorStatus, OperatorCondition, OperatorObservation, ReadyReason } from './status.js';

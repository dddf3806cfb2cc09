export { loadRegistry, checkRegistryFile, rbacFindings, defaultRegistryPath, RegistryRejected } from './registry.js';
export type { OperatorRegistry, OperatorType, KindSpec, ReadyRule, RbacRule } from './registry.js';
export { mergePatch } from './merge-patch.js';
export { injectIdentity, nvcfLabels, LABEL, REVISION_ANNOTATION } from './labels.js';
export type { NvcfIdentity } from './labels.js';
export { meets, notReady, kindSpecOf } from './readiness.js';
export { at } from './paths.js';

import type { OperatorRegistry } from './registry.js';
import { ensureObjects } from './paths.js';
import { isRecord, type Obj } from './values.js';

export interface NvcfIdentity {
  ncaId: string;
  functionId: string;
  versionId: string;
  instanceId: string;
  revisionId: string;
}

export const LABEL = {
  ncaId: 'nvcf.nvidia.com/nca-id',
  functionId: 'nvcf.nvidia.com/function-id',
  versionId: 'nvcf.nvidia.com/version-id',
  instanceId: 'nvcf.nvidia.com/instance-id',
} as const;
export const REVISION_ANNOTATION = 'nvcf.nvidia.com/revision-id';

/**
 * The environment variables the admission webhook sets on every container in an instance
 * namespace, one per label above: a workload reads its own ids without the downward API.
 */
export const ENV = {
  ncaId: 'NVCF_NCA_ID',
  functionId: 'NVCF_FUNCTION_ID',
  versionId: 'NVCF_FUNCTION_VERSION_ID',
  instanceId: 'NVCF_INSTANCE_ID',
} as const satisfies Record<keyof typeof LABEL, string>;

/**
 * Test hooks of the simulated operators (the simulated driver and test/services/cluster-sim):
 * `status` is a JSON status the operator writes instead of becoming ready (a failure condition
 * with its message); with `statusForMs` it becomes ready that long afterwards; `task` is how a
 * task's Job runs and ends.
 */
export const SIM_ANNOTATION = {
  status: 'sim.nvcf.nvidia.com/status',
  statusForMs: 'sim.nvcf.nvidia.com/status-for-ms',
  /** on a task's Job: its `configuration.nvcfSimulate` (runMs, exitCode, message), which the simulated Job controller plays */
  task: 'sim.nvcf.nvidia.com/task',
} as const;

export const nvcfLabels = (id: NvcfIdentity): Record<string, string> => ({
  [LABEL.ncaId]: id.ncaId,
  [LABEL.functionId]: id.functionId,
  [LABEL.versionId]: id.versionId,
  [LABEL.instanceId]: id.instanceId,
});

const merge = (o: Obj, key: string, add: Record<string, string>) => {
  const cur = o[key];
  o[key] = { ...(isRecord(cur) ? cur : {}), ...add };
};

/**
 * Stamps NVCF labels and the revision annotation on every object and on the pod templates
 * the registry names, so objects the operator creates for them can be found by label.
 */
export function injectIdentity(manifests: Obj[], id: NvcfIdentity, registry: OperatorRegistry): Obj[] {
  const labels = nvcfLabels(id);
  const annotations = { [REVISION_ANNOTATION]: id.revisionId };
  return manifests.map((m) => {
    const out = structuredClone(m);
    const meta = isRecord(out.metadata) ? out.metadata : (out.metadata = {});
    merge(meta, 'labels', labels);
    merge(meta, 'annotations', annotations);
    const { apiVersion, kind } = out;
    const spec =
      typeof apiVersion === 'string' && typeof kind === 'string' ? registry.kindOf(apiVersion, kind)?.spec : undefined;
    for (const path of spec?.podTemplates ?? []) {
      for (const tpl of ensureObjects(out, path)) {
        merge(tpl, 'labels', labels);
        merge(tpl, 'annotations', annotations);
      }
    }
    return out;
  });
}

import type { OperatorRegistry } from './registry.js';
import { ensureObjects } from './paths.js';

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
 * Test hooks of the simulated operators (the simulated driver and test/services/cluster-sim):
 * `status` is a JSON status the operator writes instead of becoming ready (a failure condition
 * with its message); with `statusForMs` it becomes ready that long afterwards.
 */
export const SIM_ANNOTATION = {
  status: 'sim.nvcf.nvidia.com/status',
  statusForMs: 'sim.nvcf.nvidia.com/status-for-ms',
} as const;

export const nvcfLabels = (id: NvcfIdentity): Record<string, string> => ({
  [LABEL.ncaId]: id.ncaId,
  [LABEL.functionId]: id.functionId,
  [LABEL.versionId]: id.versionId,
  [LABEL.instanceId]: id.instanceId,
});

type Obj = Record<string, any>;
const merge = (o: Obj, key: string, add: Record<string, string>) => {
  o[key] = { ...(o[key] ?? {}), ...add };
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
    const meta = (out.metadata ??= {});
    merge(meta, 'labels', labels);
    merge(meta, 'annotations', annotations);
    for (const path of registry.kindOf(out.apiVersion, out.kind)?.spec.podTemplates ?? []) {
      for (const tpl of ensureObjects(out, path)) {
        merge(tpl, 'labels', labels);
        merge(tpl, 'annotations', annotations);
      }
    }
    return out;
  });
}

import type { Workload } from '@nvcf/contracts';
import type { DeploymentRecord, Revision, VersionRecord } from './model.js';
import type { OperatorRegistry } from '@nvcf/operators';
import { mergeManifests } from './operators/merge.js';

/** What the agent applies for one revision: always complete, never a diff. */
export function workloadFor(
  v: VersionRecord,
  d: Pick<DeploymentRecord, 'manifestMergePatches' | 'serviceName' | 'servicePort'> | null,
  rev: Pick<Revision, 'configuration' | 'manifestMergePatches'> | null,
  registry: OperatorRegistry,
): Workload {
  switch (v.workloadType) {
    case 'HELM':
      return {
        kind: 'helm',
        chart: v.helmChart!,
        serviceName: v.helmChartServiceName!,
        servicePort: v.inferencePort ?? undefined,
        values: rev?.configuration ?? {},
      };
    case 'CONTAINER':
      return {
        kind: 'container',
        image: v.containerImage!,
        args: v.containerArgs ?? [],
        environment: v.containerEnvironment ?? {},
      };
    case 'OPERATOR': {
      const base = mergeManifests(v.manifests ?? [], d?.manifestMergePatches ?? [], registry, 'manifestMergePatches');
      const manifests = mergeManifests(
        base,
        rev?.manifestMergePatches ?? [],
        registry,
        'revision.manifestMergePatches',
      );
      return {
        kind: 'operator',
        operatorTypes: v.operatorTypes ?? [],
        manifests,
        serviceName: d?.serviceName ?? '',
        servicePort: d?.servicePort ?? 0,
      };
    }
  }
}

import type { DesiredInstance } from '../src/index.js';

/** One Helm instance of spec 'spec' on `clusterId`, at a revision: the agent tests' work item. */
export const desiredInstance = (
  clusterId: string,
  instanceId: string,
  revisionId: string,
  createdAt: string,
  values: Record<string, unknown> = {},
): DesiredInstance => ({
  ncaId: 'nca-a',
  functionId: 'fn',
  versionId: 'ver',
  gpuSpecificationId: 'spec',
  clusterId,
  instanceId,
  gpu: 'L40S',
  instanceType: 't',
  revisionId,
  revisionCreatedAt: createdAt,
  workload: { kind: 'helm', chart: 'oci://r/echo-1.0.0.tgz', serviceName: 'echo', values },
});

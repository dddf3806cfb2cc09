import { fail } from '@nvcf/errors';
import type { VersionRecord } from './model.js';
import type { Nvcf } from './nvcf.js';

export async function undeployFunctionVersion(
  nvcf: Nvcf,
  tenant: string,
  versionId: string,
  graceful: boolean,
): Promise<VersionRecord> {
  const [v] = await nvcf.store.getVersions([versionId]);
  if (!v || v.ncaId !== tenant)
    throw fail('NOT_FOUND', `function version ${versionId} does not exist`, { field: 'versionId' });
  if (!v.deploymentId)
    throw fail('BAD_USER_INPUT', `function version ${versionId} was never deployed`, { field: 'versionId' });
  // INACTIVE first, so late status events no longer move the version's status
  await nvcf.store.setVersionStatus(versionId, 'INACTIVE');
  await nvcf.icms.terminate(tenant, { versionId, graceful });
  return { ...v, status: 'INACTIVE' };
}

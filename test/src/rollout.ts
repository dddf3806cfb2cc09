import {
  FunctionVersionDocument,
  GpuSpecificationDocument,
  UpdateGpuSpecificationDocument,
  type GpuSpecificationInput,
  type RevisionStatus,
} from '@nvcf/client';
import { waitUntil, GiveUp } from '@nvcf/testing';
import { ok, type HttpClient } from './client.js';
import { deployHelm, helmFunction, l40s } from './fixtures.js';

export type Spec = NonNullable<Awaited<ReturnType<typeof readSpec>>>;

export async function readSpec(client: HttpClient, id: string) {
  return ok(await client(GpuSpecificationDocument, { id })).gpuSpecification;
}

export async function versionStatus(client: HttpClient, id: string) {
  return ok(await client(FunctionVersionDocument, { id })).functionVersion!.status;
}

/** A deployed Helm function whose instances all run its first revision. */
export async function deployedHelm(client: HttpClient, spec: Partial<GpuSpecificationInput> = {}) {
  const { versionId, functionId } = await helmFunction(client);
  const [specId] = await deployHelm(client, versionId, [l40s(spec)]);
  const s = await waitRevision(client, specId, 'APPLIED');
  await waitUntil(async () => (await versionStatus(client, versionId)) === 'ACTIVE', { what: 'version ACTIVE' });
  return {
    versionId,
    functionId,
    specId: specId,
    instanceIds: s.instances.map((i) => i.id),
    firstRevisionId: s.latestRevision!.id,
  };
}

/** Waits until the latest revision reaches `status` (FAILED/APPLIED are final). */
export async function waitRevision(
  client: HttpClient,
  specId: string,
  status: RevisionStatus,
  timeoutMs = 20_000,
): Promise<Spec> {
  return waitUntil(
    async () => {
      const s = await readSpec(client, specId);
      const got = s?.latestRevision?.status;
      if (got && got !== status && (got === 'FAILED' || got === 'APPLIED'))
        throw new GiveUp(`revision ended ${got}, expected ${status}: ${s?.latestRevision?.failureReason}`);
      return got === status && s;
    },
    { what: `revision ${status}`, timeoutMs },
  );
}

export async function submit(client: HttpClient, id: string, configuration: unknown) {
  return client(UpdateGpuSpecificationDocument, { id, input: { revision: { configuration } } });
}

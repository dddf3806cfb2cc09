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
import type { Collected } from './subscriptions.js';

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

/** What a rollout watch selects of each status event, at least. */
export interface WatchedStatus {
  instanceStatusChanged: {
    kind: string;
    state: string;
    revisionId: string | null;
    targetRevisionId: string | null;
    instance: { id: string; revisionId: string | null; targetRevisionId: string | null };
  };
}

/**
 * Waits until every instance was seen ACTIVE on `to`, then checks each one's transitions, as
 * the event and as its instance say: UPDATING from `from` to `to`, then ACTIVE on `to` without a target.
 */
export async function expectRolledOver<T extends WatchedStatus>(
  sub: Collected<T>,
  instanceIds: string[],
  from: string,
  to: string,
) {
  const transitions = (id: string) =>
    sub.events.map((e) => e.instanceStatusChanged).filter((e) => e.kind === 'TRANSITION' && e.instance.id === id);
  await sub.until(
    () => instanceIds.every((id) => transitions(id).some((e) => e.state === 'ACTIVE')),
    'every instance ACTIVE on the new revision',
  );
  const expected = ['UPDATING', from, to, from, to, 'ACTIVE', to, null, to, null];
  for (const id of instanceIds) {
    const seen = transitions(id).flatMap((e) => [
      e.state,
      e.revisionId,
      e.targetRevisionId,
      e.instance.revisionId,
      e.instance.targetRevisionId,
    ]);
    expect([id, seen]).toEqual([id, expected]);
  }
}

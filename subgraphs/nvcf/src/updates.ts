import { randomUUID } from 'node:crypto';
import { fail, isOutage } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';
import { checkHelmValues, jsonExtent } from '@nvcf/subgraph-kit';
import type { DeploymentRecord, JsonObject, Revision, RevisionPair, SpecRecord, VersionRecord } from './model.js';
import type { Nvcf } from './nvcf.js';
import { checkBounds } from './validate.js';
import { checkSidecarContract } from './sidecar-contract.js';
import { workloadFor } from './workload.js';
import { acceptedByIcms, handOff } from './handoff.js';
import { mergeManifests } from './operators/merge.js';
import { requiredAttributes } from './deploy.js';
import { checkServiceUnchanged } from './operators/service.js';
import type { RevisionInput, UpdateGpuSpecificationInput } from './generated/resolvers.js';

const log = createLogger('nvcf');

async function load(nvcf: Nvcf, tenant: string, specId: string): Promise<{ spec: SpecRecord; version: VersionRecord }> {
  const [spec] = await nvcf.store.getSpecs([specId]);
  if (!spec || spec.ncaId !== tenant)
    throw fail('NOT_FOUND', `GPU specification ${specId} does not exist`, { field: 'id' });
  const [version] = await nvcf.store.getVersions([spec.versionId]);
  if (!version) throw fail('NOT_FOUND', `GPU specification ${specId} has no function version`);
  return { spec, version };
}

type Deployment = () => Promise<DeploymentRecord | null>;

/** The spec's deployment, read once, when first asked for: an operator's check and the hand-off share it. */
function deploymentOf(nvcf: Nvcf, spec: SpecRecord): Deployment {
  let read: Promise<DeploymentRecord | null> | undefined;
  return () => (read ??= nvcf.store.getDeployments([spec.deploymentId]).then(([d]) => d ?? null));
}

/** Validates the revision body for the workload type; returns what the new revision stores. */
async function revisionBody(
  nvcf: Nvcf,
  version: VersionRecord,
  spec: SpecRecord,
  input: RevisionInput,
  deployment: Deployment,
) {
  if (version.workloadType === 'CONTAINER') {
    throw fail(
      'UPDATE_NOT_ALLOWED',
      'container functions cannot be updated in place; create and deploy a new function version',
      { field: 'input.revision' },
    );
  }
  if (version.workloadType === 'HELM') {
    if (input.manifestMergePatches != null)
      throw fail(
        'BAD_USER_INPUT',
        'revision.manifestMergePatches applies to operator workloads only; send revision.configuration',
        { field: 'input.revision.manifestMergePatches' },
      );
    const configuration = checkHelmValues(
      'revision.configuration',
      input.configuration,
      nvcf.limits.maxConfigurationBytes,
    );
    checkSidecarContract(version, configuration);
    return { configuration, manifestMergePatches: null };
  }
  if (input.configuration != null)
    throw fail(
      'BAD_USER_INPUT',
      'revision.configuration holds Helm values; operator workloads take revision.manifestMergePatches',
      { field: 'input.revision.configuration' },
    );
  const patches = input.manifestMergePatches;
  if (!patches?.length)
    throw fail('BAD_USER_INPUT', 'revision.manifestMergePatches must contain at least one patch', {
      field: 'input.revision.manifestMergePatches',
    });
  const { bytes: size } = jsonExtent({ raw: patches });
  if (size > nvcf.limits.maxConfigurationBytes)
    throw fail(
      'LIMIT_EXCEEDED',
      `revision.manifestMergePatches is ${size} bytes; the limit is ${nvcf.limits.maxConfigurationBytes}`,
      { field: 'input.revision.manifestMergePatches' },
    );
  const d = await deployment();
  const base = mergeManifests(
    version.manifests ?? [],
    d?.manifestMergePatches ?? [],
    nvcf.registry,
    'manifestMergePatches',
    version.operatorTypes ?? [],
  );
  const merged = mergeManifests(
    base,
    patches,
    nvcf.registry,
    'revision.manifestMergePatches',
    version.operatorTypes ?? [],
  );
  checkServiceUnchanged(base, merged, d?.serviceName ?? '', d?.servicePort ?? 0);
  return { configuration: null, manifestMergePatches: patches as JsonObject[] };
}

/** Stores a new latest revision by compare-and-set and hands it to ICMS (rules 1-7). */
async function submitRevision(
  nvcf: Nvcf,
  spec: SpecRecord,
  version: VersionRecord,
  body: Pick<Revision, 'configuration' | 'manifestMergePatches'>,
  expected: RevisionPair,
  deploymentRead: Deployment = deploymentOf(nvcf, spec),
): Promise<void> {
  // read beside the check below (one round trip less on a loaded store); a refusal leaves it unused
  const deployment = deploymentRead();
  deployment.catch(() => {});
  // ICMS unavailable: the check is made at the hand-off instead, and the revision waits for it
  const accepted = await acceptedByIcms(nvcf, spec).catch((err: unknown) => {
    if (isOutage(err)) return undefined;
    throw err;
  });
  if (accepted === false) {
    throw fail(
      'UPDATE_NOT_ALLOWED',
      `GPU specification ${spec.id} has no instance request accepted by ICMS yet; deploy it with minInstances ≥ 1 and retry`,
      { field: 'id' },
    );
  }
  const prev = expected.latest;
  const inFlight = prev && (prev.status === 'PENDING' || prev.status === 'ROLLING_OUT');
  const rev: Revision = {
    id: randomUUID(),
    specId: spec.id,
    status: 'PENDING',
    ...body,
    createdAt: new Date().toISOString(),
    // set at the hand-off: a revision waiting for ICMS is not rolling out yet
    deadline: null,
    supersedes: inFlight ? prev.id : null,
  };
  if (!(await nvcf.store.casRevisions(spec.id, prev?.id ?? null, { latest: rev, lastApplied: expected.lastApplied }))) {
    throw fail(
      'CONFLICT',
      `another revision of GPU specification ${spec.id} was submitted at the same time; read latestRevision and retry`,
      { field: 'id' },
    );
  }
  const next = await handOff(nvcf, spec, version, rev, expected, { checkAccepted: accepted === undefined, deployment });
  if (next.status === 'PENDING') return;
  // Agents may have reported the new revision before ROLLING_OUT was stored, when the readers'
  // evaluations still skipped it: one evaluation now sees them. Nothing to wait for is decided before
  // the answer; otherwise the caller does not wait for it (it reads the store, slow when loaded), and
  // an evaluation lost here is made up by a later deadline sweep.
  if (next.status === 'ROLLING_OUT' && next.targets?.length === 0) await nvcf.rollouts.evaluate(spec.id);
  else void nvcf.rollouts.evaluate(spec.id).catch((err) => log.error(`evaluating ${spec.id} failed`, err));
}

export async function updateGpuSpecification(
  nvcf: Nvcf,
  tenant: string,
  specId: string,
  input: UpdateGpuSpecificationInput,
): Promise<SpecRecord> {
  // the revisions are read beside the spec: only returned, and compared below, once the spec is the caller's
  const revisions = nvcf.store.getRevisions([specId]);
  revisions.catch(() => {});
  const { spec, version } = await load(nvcf, tenant, specId);
  if (input.revision == null && input.minInstances == null && input.maxInstances == null) {
    throw fail('BAD_USER_INPUT', 'nothing to update: give revision, minInstances or maxInstances', { field: 'input' });
  }
  const min = input.minInstances ?? spec.minInstances;
  const max = input.maxInstances ?? spec.maxInstances;
  checkBounds('input', min, max);
  const deployment = deploymentOf(nvcf, spec);
  const body = input.revision ? await revisionBody(nvcf, version, spec, input.revision, deployment) : null;
  const [pair] = await revisions;
  // checked against the same read the compare-and-set below expects: a revision stored in between fails that instead
  if (input.expectedRevisionId != null && pair?.latest?.id !== input.expectedRevisionId) {
    throw fail(
      'CONFLICT',
      `GPU specification ${specId} has moved on: its latest revision is ${pair?.latest?.id ?? 'none'}, not the expected ${input.expectedRevisionId}; read it again and resubmit your change on top of it`,
      { field: 'input.expectedRevisionId' },
    );
  }
  if (body) await submitRevision(nvcf, spec, version, body, pair, deployment);
  if (min === spec.minInstances && max === spec.maxInstances) return spec; // a revision leaves the record as it was
  await scale(nvcf, tenant, spec, version, min, max, deployment);
  return (await nvcf.store.getSpecs([specId]))[0]!;
}

/** A higher minInstances launches the missing instances on the latest revision (rule 7). */
async function scale(
  nvcf: Nvcf,
  tenant: string,
  spec: SpecRecord,
  version: VersionRecord,
  min: number,
  max: number,
  deployment: Deployment,
) {
  await nvcf.store.setSpecBounds(spec.id, min, max);
  if (version.status === 'INACTIVE' || version.status === 'DELETED') return;
  const { liveInstances } = await nvcf.icms.accepted(tenant, { gpuSpecificationId: spec.id });
  if (liveInstances === undefined)
    throw fail('INTERNAL_SERVER_ERROR', `ICMS did not count the instances of ${spec.id}`);
  if (min <= liveInstances) return;
  const [pair] = await nvcf.store.getRevisions([spec.id]);
  const d = await deployment();
  const rev = pair.latest;
  await nvcf.icms.launch(tenant, {
    specs: [
      {
        ref: { ncaId: tenant, functionId: spec.functionId, versionId: spec.versionId, gpuSpecificationId: spec.id },
        placement: {
          gpu: spec.gpu,
          instanceType: spec.instanceType,
          clusters: spec.clusters,
          regions: spec.regions,
          attributes: requiredAttributes(nvcf, version, spec),
          singleTenant: version.workloadType === 'OPERATOR',
        },
        count: min - liveInstances,
        revisionId: rev?.id ?? 'none',
        revisionCreatedAt: rev?.createdAt ?? new Date(0).toISOString(),
        workload: workloadFor(version, d, rev, nvcf.registry),
      },
    ],
  });
  await nvcf.rollouts.evaluateVersion(version.id);
}

/** Rollback is a roll-forward to the last applied configuration (rule 10). */
export async function rollbackGpuSpecification(nvcf: Nvcf, tenant: string, specId: string): Promise<SpecRecord> {
  const { spec, version } = await load(nvcf, tenant, specId);
  const [pair] = await nvcf.store.getRevisions([specId]);
  const last = pair.lastApplied;
  if (!last)
    throw fail(
      'UPDATE_NOT_ALLOWED',
      `nothing to roll back to: no revision of GPU specification ${specId} has been applied yet`,
      { field: 'id' },
    );
  if (pair.latest?.id === last.id)
    throw fail(
      'UPDATE_NOT_ALLOWED',
      `nothing to roll back to: GPU specification ${specId} already runs its last applied revision ${last.id}`,
      { field: 'id' },
    );
  if (version.workloadType === 'CONTAINER')
    throw fail('UPDATE_NOT_ALLOWED', 'container functions have no revisions to roll back');
  await submitRevision(
    nvcf,
    spec,
    version,
    { configuration: last.configuration ?? null, manifestMergePatches: last.manifestMergePatches ?? null },
    pair,
  );
  return spec;
}

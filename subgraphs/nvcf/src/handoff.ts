import { isOutage } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';
import type { DeploymentRecord, Revision, RevisionPair, SpecRecord, VersionRecord } from './model.js';
import type { Nvcf } from './nvcf.js';
import { workloadFor } from './workload.js';
import { launchOf } from './deploy.js';

const log = createLogger('nvcf');

/** A PENDING revision older than this whose hand-off is not done is handed off again by the sweep. */
const RETRY_AFTER_MS = 5_000;
/**
 * A launch is repeated later: twice the internal call's limit, so that one which outlasted the call
 * has finished (or failed) in ICMS before it is asked again.
 */
const LAUNCH_RETRY_AFTER_MS = 30_000;

/**
 * Hands a stored PENDING revision to ICMS: an update, which ICMS sends to the instances' agents, or a
 * deployment's first revision whose launch ICMS did not answer (`launch`, stored by
 * deployFunctionVersion), which ICMS launches again keeping the instances a lost answer created.
 * ROLLING_OUT with its targets when ICMS takes it, FAILED when ICMS refuses it (a refused launch fails
 * the version too). While ICMS is unavailable (isOutage) the revision stays PENDING, and the deadline
 * sweep hands it off again once ICMS answers (`retryHandoffs`): work submitted during an ICMS outage is
 * delivered after it, not lost. ICMS keys the update action by the revision and a launch's instances by
 * spec, revision and index, so a hand-off repeated after an answer was lost sends nothing twice. The
 * deadline counts from the hand-off: waiting for ICMS is not rolling out.
 */
export async function handOff(
  nvcf: Nvcf,
  spec: SpecRecord,
  version: VersionRecord,
  rev: Revision,
  pair: Pick<RevisionPair, 'lastApplied'>,
  opts: { checkAccepted: boolean; deployment?: Promise<DeploymentRecord | null | undefined> },
): Promise<Revision> {
  const d = await (opts.deployment ?? nvcf.store.getDeployments([spec.deploymentId]).then(([x]) => x));
  // taken before the call: ICMS sends the work on, so an instance may report UPDATING before
  // the call returns, and a rollout must not look as if it started after its first transition
  const startedAt = new Date().toISOString();
  // the mark of a launch not answered yet ends with its hand-off
  const { launch, ...base } = rev;
  let next: Revision;
  try {
    const sent = launch
      ? await sendLaunch(nvcf, spec, version, d ?? null, rev)
      : await sendUpdate(nvcf, spec, version, d ?? null, rev, opts);
    next =
      'refused' in sent
        ? { ...base, status: 'FAILED', failureReason: sent.refused }
        : { ...base, status: 'ROLLING_OUT', ...sent, startedAt, deadline: nvcf.deadlineFrom(Date.parse(startedAt)) };
  } catch (err) {
    if (isOutage(err)) {
      log.warn(
        `revision ${rev.id} of ${spec.id} stays PENDING: ICMS is unavailable (${(err as Error).message}); handed off once it answers`,
      );
      return rev;
    }
    const what = launch ? 'launch' : 'update';
    next = { ...base, status: 'FAILED', failureReason: `ICMS did not accept the ${what}: ${(err as Error).message}` };
    if (launch) await nvcf.store.setVersionStatus(version.id, 'ERROR', ['DEPLOYING']);
  }
  // a newer revision may have replaced this one meanwhile; then it is not ours to move
  await nvcf.store.casRevisions(spec.id, rev.id, { latest: next, lastApplied: pair.lastApplied });
  if (launch && next.status === 'ROLLING_OUT') await nvcf.rollouts.evaluateVersion(version.id);
  return next;
}

/** Whether ICMS accepted an instance request of the spec: what an update needs, without counting instances. */
export async function acceptedByIcms(nvcf: Nvcf, spec: SpecRecord): Promise<boolean> {
  const r = await nvcf.icms.accepted(spec.ncaId, { gpuSpecificationId: spec.id, liveInstances: false });
  return r.accepted;
}

type Sent = { targets: string[]; updateActionId?: string } | { refused: string };

async function sendUpdate(
  nvcf: Nvcf,
  spec: SpecRecord,
  version: VersionRecord,
  d: DeploymentRecord | null,
  rev: Revision,
  opts: { checkAccepted: boolean },
): Promise<Sent> {
  const tenant = spec.ncaId;
  if (opts.checkAccepted && !(await acceptedByIcms(nvcf, spec)))
    return { refused: `GPU specification ${spec.id} has no instance request accepted by ICMS` };
  return nvcf.icms.update(tenant, {
    ref: { ncaId: tenant, functionId: spec.functionId, versionId: spec.versionId, gpuSpecificationId: spec.id },
    revisionId: rev.id,
    revisionCreatedAt: rev.createdAt,
    workload: workloadFor(version, d, rev, nvcf.registry),
  });
}

/** Not launched when the deployment is no longer its version's: undeployed meanwhile, or never linked (a crash while it was stored). */
async function sendLaunch(
  nvcf: Nvcf,
  spec: SpecRecord,
  version: VersionRecord,
  d: DeploymentRecord | null,
  rev: Revision,
): Promise<Sent> {
  if (!d || version.deploymentId !== d.id || version.status === 'INACTIVE' || version.status === 'DELETED')
    return { refused: `deployment ${spec.deploymentId} was undeployed before ICMS launched it` };
  const { instances } = await nvcf.icms.launch(spec.ncaId, { specs: [launchOf(nvcf, version, d, spec, rev)] });
  return { targets: instances[spec.id] ?? [] };
}

/**
 * Hands off again every PENDING revision whose hand-off did not happen (ICMS was unavailable).
 * Stops at the first one that still finds ICMS unavailable: the rest would too.
 */
export async function retryHandoffs(nvcf: Nvcf, nowMs = Date.now()): Promise<number> {
  let handed = 0;
  for (const pair of await nvcf.store.inFlightRevisions()) {
    const rev = pair.latest!;
    const after = rev.launch ? LAUNCH_RETRY_AFTER_MS : RETRY_AFTER_MS;
    if (rev.status !== 'PENDING' || nowMs - Date.parse(rev.createdAt) < after) continue;
    const [spec] = await nvcf.store.getSpecs([pair.specId]);
    const [version] = spec ? await nvcf.store.getVersions([spec.versionId]) : [];
    if (!spec || !version) continue;
    const next = await handOff(nvcf, spec, version, rev, pair, { checkAccepted: true });
    if (next.status === 'PENDING') break;
    handed++;
    void nvcf.rollouts.evaluate(spec.id).catch((err) => log.error(`evaluating ${spec.id} failed`, err));
  }
  return handed;
}

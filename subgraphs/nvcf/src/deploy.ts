import { randomUUID } from 'node:crypto';
import { fail, isOutage } from '@nvcf/errors';
import { checkHelmValues, inputLimit } from '@nvcf/subgraph-kit';
import type { LaunchSpec } from '@nvcf/contracts';
import { createLogger } from '@nvcf/logging';
import type { DeploymentRecord, JsonObject, Revision, RevisionPair, SpecRecord, VersionRecord } from './model.js';
import { checkPort, checkSpec } from './validate.js';
import { workloadFor } from './workload.js';
import { mergeManifests } from './operators/merge.js';
import type { Nvcf } from './nvcf.js';
import type { DeployInput } from './generated/resolvers.js';

const log = createLogger('nvcf');

/** Attributes a cluster must carry for this version: the spec's own plus each operator type's. */
export const requiredAttributes = (nvcf: Nvcf, v: VersionRecord, spec: Pick<SpecRecord, 'attributes'>) => [
  ...new Set([...spec.attributes, ...(v.operatorTypes ?? []).map((t) => nvcf.registry.get(t)!.clusterAttribute)]),
];

function checkOperatorDeploy(nvcf: Nvcf, v: VersionRecord, input: DeployInput) {
  const operatorOnly = ['manifestMergePatches', 'serviceName', 'servicePort'] as const;
  if (v.workloadType !== 'OPERATOR') {
    const given = operatorOnly.filter((k) => input[k] != null);
    if (given.length)
      throw fail(
        'BAD_USER_INPUT',
        `${given.join(', ')} apply to operator workloads only; this version is ${v.workloadType}`,
        { field: given[0] },
      );
    return;
  }
  if (!input.serviceName || !input.servicePort) {
    throw fail(
      'BAD_USER_INPUT',
      'serviceName and servicePort are required for operator deployments (the Service the worker sidecar sends requests to)',
      { field: 'serviceName' },
    );
  }
  checkPort('servicePort', input.servicePort);
  mergeManifests(
    v.manifests ?? [],
    input.manifestMergePatches ?? [],
    nvcf.registry,
    'manifestMergePatches',
    v.operatorTypes ?? [],
  );
}

/** What ICMS is asked to place and start for one GPU specification of a deployment. */
export function launchOf(
  nvcf: Nvcf,
  v: VersionRecord,
  deployment: DeploymentRecord,
  spec: SpecRecord,
  revision: Revision,
): LaunchSpec {
  return {
    ref: { ncaId: spec.ncaId, functionId: spec.functionId, versionId: spec.versionId, gpuSpecificationId: spec.id },
    placement: {
      gpu: spec.gpu,
      instanceType: spec.instanceType,
      clusters: spec.clusters,
      regions: spec.regions,
      attributes: requiredAttributes(nvcf, v, spec),
      singleTenant: v.workloadType === 'OPERATOR',
    },
    count: spec.minInstances,
    revisionId: revision.id,
    revisionCreatedAt: revision.createdAt,
    workload: workloadFor(v, deployment, revision, nvcf.registry),
  };
}

export async function deployFunctionVersion(
  nvcf: Nvcf,
  tenant: string,
  versionId: string,
  input: DeployInput,
): Promise<DeploymentRecord> {
  const [v] = await nvcf.store.getVersions([versionId]);
  if (!v || v.ncaId !== tenant)
    throw fail('NOT_FOUND', `function version ${versionId} does not exist`, { field: 'versionId' });
  if (v.deploymentId && v.status !== 'INACTIVE')
    throw fail('CONFLICT', `function version ${versionId} is already deployed (status ${v.status}); undeploy it first`);
  if (!input.gpuSpecifications.length)
    throw fail('BAD_USER_INPUT', 'gpuSpecifications must contain at least one specification', {
      field: 'gpuSpecifications',
    });
  const maxSpecs = inputLimit('DeployInput.gpuSpecifications').maxItems!;
  if (input.gpuSpecifications.length > maxSpecs)
    throw fail('LIMIT_EXCEEDED', `at most ${maxSpecs} GPU specifications per deployment`, {
      field: 'gpuSpecifications',
      limit: maxSpecs,
    });
  checkOperatorDeploy(nvcf, v, input);

  const now = new Date().toISOString();
  const deployment: DeploymentRecord = {
    id: randomUUID(),
    versionId,
    ncaId: tenant,
    specIds: [],
    createdAt: now,
    manifestMergePatches: (input.manifestMergePatches as JsonObject[] | null) ?? null,
    serviceName: input.serviceName ?? null,
    servicePort: input.servicePort ?? null,
  };
  const specs: SpecRecord[] = [];
  const pairs: RevisionPair[] = [];
  const launches: LaunchSpec[] = [];
  input.gpuSpecifications.forEach((s, i) => {
    const where = `gpuSpecifications[${i}]`;
    checkSpec(where, s);
    let configuration: JsonObject | null = null;
    if (s.configuration != null) {
      if (v.workloadType !== 'HELM')
        throw fail('BAD_USER_INPUT', `${where}.configuration holds Helm values; this version is ${v.workloadType}`, {
          field: `${where}.configuration`,
        });
      configuration = checkHelmValues(`${where}.configuration`, s.configuration, nvcf.limits.maxConfigurationBytes);
    } else if (v.workloadType === 'HELM') configuration = {};
    const spec: SpecRecord = {
      id: randomUUID(),
      deploymentId: deployment.id,
      versionId,
      functionId: v.functionId,
      ncaId: tenant,
      gpu: s.gpu,
      instanceType: s.instanceType,
      minInstances: s.minInstances,
      maxInstances: s.maxInstances,
      maxRequestConcurrency: s.maxRequestConcurrency ?? 1,
      clusters: s.clusters ?? [],
      regions: s.regions ?? [],
      attributes: s.attributes ?? [],
    };
    // the initial configuration is the first revision (it becomes lastApplied once every instance runs it)
    // its rollout is the launch below, which starts now
    const revision = {
      id: randomUUID(),
      specId: spec.id,
      status: 'ROLLING_OUT' as const,
      configuration,
      manifestMergePatches: null,
      createdAt: now,
      startedAt: now,
      deadline: nvcf.deadlineFrom(Date.now()),
    };
    specs.push(spec);
    pairs.push({ specId: spec.id, latest: revision, lastApplied: null });
    launches.push(launchOf(nvcf, v, deployment, spec, revision));
  });
  deployment.specIds = specs.map((s) => s.id);

  // ICMS is the admission point: it places every spec or refuses and creates nothing.
  let instances: Record<string, string[]>;
  try {
    ({ instances } = await nvcf.icms.launch(tenant, { specs: launches }));
  } catch (err) {
    if (!isOutage(err)) throw err;
    // No answer (ICMS unavailable, or a large launch outlasting the call): ICMS may have placed it all
    // or nothing. The deployment is stored with its first revisions PENDING and the sweep launches
    // them again (`retryHandoffs`); ICMS keeps what a lost answer already created, so nothing runs twice
    // and nothing runs unrecorded. Their deadlines count from the launch ICMS answers.
    log.warn(
      `deployment ${deployment.id} of ${versionId} waits for its launch: ${(err as Error).message}; launched again once ICMS answers`,
    );
    for (const p of pairs)
      p.latest = { ...p.latest!, status: 'PENDING', startedAt: null, deadline: null, launch: true };
    instances = {};
  }
  for (const p of pairs) if (p.latest!.status === 'ROLLING_OUT') p.latest!.targets = instances[p.specId] ?? [];
  await nvcf.store.putDeployment(deployment, specs, pairs);
  await nvcf.store.putVersion({ ...v, deploymentId: deployment.id, status: 'DEPLOYING' });
  for (const s of specs) await nvcf.rollouts.evaluate(s.id);
  await nvcf.rollouts.evaluateVersion(versionId);
  return deployment;
}

import { randomUUID } from 'node:crypto';
import { fail } from '@nvcf/errors';
import type { FunctionRecord, VersionRecord } from './model.js';
import type { NvcfStore } from './store/index.js';
import type { OperatorRegistry } from '@nvcf/operators';
import { validateManifests } from './operators/validate.js';
import { checkHealth, checkHelm, checkName, checkPort } from './validate.js';
import type { CreateFunctionInput } from './generated/resolvers.js';

/** Validates the whole input before anything is stored (no partial writes). */
function buildVersion(input: CreateFunctionInput, fn: FunctionRecord, registry: OperatorRegistry): VersionRecord {
  checkName(input.name);
  checkPort('inferencePort', input.inferencePort);
  checkHealth(input.health);
  if (input.inferenceUrl != null && !input.inferenceUrl.startsWith('/')) {
    throw fail('BAD_USER_INPUT', `inferenceUrl must be a path starting with '/' (got '${input.inferenceUrl}')`, {
      field: 'inferenceUrl',
    });
  }
  const given = (['container', 'helm', 'operator'] as const).filter((k) => input[k] != null);
  if (given.length !== 1) {
    throw fail(
      'BAD_USER_INPUT',
      `exactly one of container, helm or operator must be given (got ${given.length ? given.join(' and ') : 'none'})`,
      { field: 'input' },
    );
  }
  const base = {
    id: randomUUID(),
    functionId: fn.id,
    ncaId: fn.ncaId,
    status: 'INACTIVE' as const,
    createdAt: new Date().toISOString(),
    inferenceUrl: input.inferenceUrl ?? null,
    inferencePort: input.inferencePort ?? null,
    health: input.health ?? null,
  };
  if (input.helm) {
    checkHelm(input.helm.chart, input.helm.serviceName);
    return { ...base, workloadType: 'HELM', helmChart: input.helm.chart, helmChartServiceName: input.helm.serviceName };
  }
  if (input.container) {
    if (!input.container.image.trim())
      throw fail('BAD_USER_INPUT', 'container.image must not be empty', { field: 'container.image' });
    const env = Object.fromEntries((input.container.environment ?? []).map((kv) => [kv.key, kv.value]));
    return {
      ...base,
      workloadType: 'CONTAINER',
      containerImage: input.container.image,
      containerArgs: input.container.args ?? [],
      containerEnvironment: env,
    };
  }
  const op = input.operator!;
  if (!op.operatorTypes.length)
    throw fail('BAD_USER_INPUT', 'operator.operatorTypes must name at least one operator type', {
      field: 'operator.operatorTypes',
    });
  for (const t of op.operatorTypes) {
    if (!registry.get(t))
      throw fail(
        'BAD_USER_INPUT',
        `unknown operator type '${t}'; known: ${registry.types.map((x) => x.name).join(', ')}`,
        { field: 'operator.operatorTypes' },
      );
  }
  if (!op.manifests.length)
    throw fail('INVALID_MANIFEST', 'operator.manifests must contain at least one manifest', {
      field: 'operator.manifests',
    });
  validateManifests(op.manifests, registry, op.operatorTypes, 'operator.manifests');
  return {
    ...base,
    workloadType: 'OPERATOR',
    operatorTypes: op.operatorTypes,
    manifests: op.manifests as Record<string, unknown>[],
  };
}

export async function createFunction(
  store: NvcfStore,
  registry: OperatorRegistry,
  tenant: string,
  input: CreateFunctionInput,
): Promise<VersionRecord> {
  const fn: FunctionRecord = { id: randomUUID(), ncaId: tenant, name: input.name, createdAt: new Date().toISOString() };
  const version = buildVersion(input, fn, registry);
  await store.putFunction(fn);
  await store.putVersion(version);
  return version;
}

export async function createFunctionVersion(
  store: NvcfStore,
  registry: OperatorRegistry,
  tenant: string,
  functionId: string,
  input: CreateFunctionInput,
): Promise<VersionRecord> {
  const [fn] = await store.getFunctions([functionId]);
  if (!fn || fn.ncaId !== tenant)
    throw fail('NOT_FOUND', `function ${functionId} does not exist`, { field: 'functionId' });
  if (input.name !== fn.name)
    throw fail('BAD_USER_INPUT', `a new version keeps the function's name '${fn.name}' (got '${input.name}')`, {
      field: 'name',
    });
  const version = buildVersion(input, fn, registry);
  await store.putVersion(version);
  return version;
}

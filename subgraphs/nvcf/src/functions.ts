import { randomUUID } from 'node:crypto';
import { fail } from '@nvcf/errors';
import type { FunctionRecord, VersionRecord } from './model.js';
import type { NvcfStore } from './store/index.js';
import { checkWorkloadInput, type OperatorRegistry } from '@nvcf/operators';
import { checkName } from '@nvcf/subgraph-kit';
import { checkHealth, checkPort } from './validate.js';
import type { CreateFunctionInput } from './generated/resolvers.js';

/** Validates the whole input before anything is stored (no partial writes). */
function buildVersion(input: CreateFunctionInput, fn: FunctionRecord, registry: OperatorRegistry): VersionRecord {
  checkName('CreateFunctionInput.name', input.name);
  checkPort('inferencePort', input.inferencePort);
  checkHealth(input.health);
  if (input.inferenceUrl != null && !input.inferenceUrl.startsWith('/')) {
    throw fail('BAD_USER_INPUT', `inferenceUrl must be a path starting with '/' (got '${input.inferenceUrl}')`, {
      field: 'inferenceUrl',
    });
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
  return { ...base, ...checkWorkloadInput(input, registry) };
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

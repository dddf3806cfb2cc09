import { fail } from '@nvcf/errors';
import type { OperatorRegistry } from './registry.js';
import { validateManifests } from './manifests.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const HELM_CHART =
  /^oci:\/\/[^\s/]+(\/[^\s/]+)*\/[a-z0-9]([-a-z0-9]*[a-z0-9])?-\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?\.tgz$/;

/** The workload part of CreateFunctionInput and CreateTaskInput (the same GraphQL input types). */
export interface WorkloadInput {
  container?: { image: string; args?: string[] | null; environment?: { key: string; value: string }[] | null } | null;
  helm?: { chart: string; serviceName: string } | null;
  operator?: { operatorTypes: string[]; manifests: unknown[] } | null;
}

/** A checked workload input, in the shape functions' versions and tasks store. */
export type CheckedWorkload =
  | { workloadType: 'HELM'; helmChart: string; helmChartServiceName: string }
  | {
      workloadType: 'CONTAINER';
      containerImage: string;
      containerArgs: string[];
      containerEnvironment: Record<string, string>;
    }
  | { workloadType: 'OPERATOR'; operatorTypes: string[]; manifests: Record<string, unknown>[] };

export function checkHelm(chart: string, serviceName: string) {
  if (!HELM_CHART.test(chart)) {
    throw fail('BAD_USER_INPUT', `helm.chart must be an oci://…/NAME-X.Y.Z.tgz URI (got '${chart}')`, {
      field: 'helm.chart',
    });
  }
  if (!DNS_LABEL.test(serviceName)) {
    throw fail(
      'BAD_USER_INPUT',
      `helm.serviceName must be a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters (got '${serviceName}')`,
      { field: 'helm.serviceName' },
    );
  }
}

/**
 * Exactly one of container, helm or operator, each checked as functions and tasks both need:
 * operator types known to the registry, manifests on their allowlist and schema.
 */
export function checkWorkloadInput(input: WorkloadInput, registry: OperatorRegistry): CheckedWorkload {
  const given = (['container', 'helm', 'operator'] as const).filter((k) => input[k] != null);
  if (given.length !== 1) {
    throw fail(
      'BAD_USER_INPUT',
      `exactly one of container, helm or operator must be given (got ${given.length ? given.join(' and ') : 'none'})`,
      { field: 'input' },
    );
  }
  if (input.helm) {
    checkHelm(input.helm.chart, input.helm.serviceName);
    return { workloadType: 'HELM', helmChart: input.helm.chart, helmChartServiceName: input.helm.serviceName };
  }
  if (input.container) {
    if (!input.container.image.trim())
      throw fail('BAD_USER_INPUT', 'container.image must not be empty', { field: 'container.image' });
    const env = Object.fromEntries((input.container.environment ?? []).map((kv) => [kv.key, kv.value]));
    return {
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
    workloadType: 'OPERATOR',
    operatorTypes: op.operatorTypes,
    manifests: op.manifests as Record<string, unknown>[],
  };
}

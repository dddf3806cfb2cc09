/**
 * Every bound on an input value, in one place. The gateway and every subgraph enforce them
 * before any resolver runs (input-limits-plugin.ts); docs/limits.md is generated from this
 * file (npm run limits:docs) and a test fails when it is stale.
 *
 * Strings count characters (UTF-16 code units), lists count items, JSON values count the
 * UTF-8 bytes of their JSON text and the nesting of their objects and arrays. A list entry's
 * string or JSON bounds apply to each item.
 */

export type LimitCode = 'LIMIT_EXCEEDED' | 'BAD_USER_INPUT';

export interface InputLimit {
  /** strings: at most this many characters (each item of a list of strings) */
  maxLength?: number;
  /** strings: at least this many characters (a domain rule, so BAD_USER_INPUT) */
  minLength?: number;
  /** lists: at most this many items */
  maxItems?: number;
  /** JSON: at most this many bytes of JSON text (each item of a list of JSON values) */
  maxBytes?: number;
  /** lists of JSON: at most this many bytes for all items together */
  maxTotalBytes?: number;
  /** JSON: objects and arrays nested at most this deep ({} is 1, {"a":[]} is 2) */
  maxDepth?: number;
  /** the registry code when a bound is crossed; LIMIT_EXCEEDED unless the bound is a domain rule */
  code?: LimitCode;
  /** why this value (shown in docs/limits.md) */
  why: string;
}

export interface InputLimits {
  /** bounds of every position of a named type that has no entry of its own */
  defaults: {
    String: Required<Pick<InputLimit, 'maxLength' | 'why'>>;
    ID: Required<Pick<InputLimit, 'maxLength' | 'why'>>;
    JSON: Required<Pick<InputLimit, 'maxBytes' | 'maxDepth' | 'why'>>;
    list: Required<Pick<InputLimit, 'maxItems' | 'why'>>;
  };
  /** by schema coordinate: `InputType.field` or `RootType.field(argument:)` */
  fields: Record<string, InputLimit>;
}

const KiB = 1024;
const jsonDepth = 32;

export const inputLimits: InputLimits = {
  defaults: {
    String: { maxLength: 4 * KiB, why: 'any String without a bound of its own' },
    ID: { maxLength: 128, why: 'any ID without a bound of its own; ours are 36-character UUIDs' },
    JSON: { maxBytes: 64 * KiB, maxDepth: jsonDepth, why: 'any JSON value without a bound of its own' },
    list: { maxItems: 100, why: 'any list without a bound of its own' },
  },
  fields: {
    'CreateFunctionInput.name': {
      minLength: 1,
      maxLength: 128,
      code: 'BAD_USER_INPUT',
      why: 'function names (a domain rule)',
    },
    'CreateFunctionInput.inferenceUrl': { maxLength: 1 * KiB, why: 'an HTTP path on the worker' },
    'HealthInput.uri': { maxLength: 1 * KiB, why: 'an HTTP path on the worker' },
    'HealthInput.timeout': { maxLength: 64, why: 'an ISO-8601 duration' },
    'ContainerWorkloadInput.image': {
      maxLength: 512,
      why: 'an OCI reference: registry host, 255-character repository, 128-character tag and a digest',
    },
    'ContainerWorkloadInput.args': { maxItems: 128, maxLength: 4 * KiB, why: 'container arguments' },
    'ContainerWorkloadInput.environment': { maxItems: 128, why: 'environment variables' },
    'KeyValueInput.key': { maxLength: 256, why: 'an environment variable name' },
    'KeyValueInput.value': { maxLength: 8 * KiB, why: 'an environment variable value (room for a PEM certificate)' },
    'HelmWorkloadInput.chart': { maxLength: 1 * KiB, why: 'an oci:// chart URI' },
    'HelmWorkloadInput.serviceName': { maxLength: 63, code: 'BAD_USER_INPUT', why: 'a DNS-1123 label (a domain rule)' },
    'OperatorWorkloadInput.operatorTypes': {
      maxItems: 8,
      maxLength: 128,
      why: 'operator type names from the registry',
    },
    'OperatorWorkloadInput.manifests': {
      maxItems: 16,
      maxBytes: 128 * KiB,
      maxTotalBytes: 512 * KiB,
      maxDepth: jsonDepth,
      why: 'Kubernetes manifests of the operator workload',
    },
    'DeployInput.gpuSpecifications': { maxItems: 16, why: 'GPU specifications of one deployment' },
    'DeployInput.manifestMergePatches': {
      maxItems: 16,
      maxBytes: 64 * KiB,
      maxTotalBytes: 64 * KiB,
      maxDepth: jsonDepth,
      why: 'RFC 7396 merge patches of the operator manifests',
    },
    'DeployInput.serviceName': {
      maxLength: 63,
      code: 'BAD_USER_INPUT',
      why: 'a Kubernetes Service name, a DNS label (a domain rule)',
    },
    'GpuSpecificationInput.gpu': { maxLength: 64, why: 'a GPU name such as L40S' },
    'GpuSpecificationInput.instanceType': { maxLength: 128, why: 'an instance type name' },
    'GpuSpecificationInput.clusters': { maxItems: 64, maxLength: 128, why: 'cluster ids or names' },
    'GpuSpecificationInput.regions': { maxItems: 32, maxLength: 64, why: 'region names' },
    'GpuSpecificationInput.attributes': { maxItems: 32, maxLength: 128, why: 'cluster attribute names' },
    'GpuSpecificationInput.configuration': {
      maxBytes: 64 * KiB,
      maxDepth: jsonDepth,
      why: 'Helm values of the first revision; large data belongs in the chart or a ConfigMap',
    },
    'RevisionInput.configuration': { maxBytes: 64 * KiB, maxDepth: jsonDepth, why: 'Helm values of a revision' },
    'RevisionInput.manifestMergePatches': {
      maxItems: 16,
      maxBytes: 64 * KiB,
      maxTotalBytes: 64 * KiB,
      maxDepth: jsonDepth,
      why: 'merge patches of a revision',
    },
    'CreateTaskInput.name': {
      minLength: 1,
      maxLength: 128,
      code: 'BAD_USER_INPUT',
      why: 'task names (a domain rule)',
    },
    'CreateTaskInput.configuration': {
      maxBytes: 64 * KiB,
      maxDepth: jsonDepth,
      why: 'Helm values of a task; large data belongs in the chart or a ConfigMap',
    },
    'CreateTaskInput.maxRuntimeDuration': { maxLength: 64, why: 'an ISO-8601 duration' },
    'CreateTaskInput.maxQueuedDuration': { maxLength: 64, why: 'an ISO-8601 duration' },
    'CreateTaskInput.terminationGracePeriodDuration': { maxLength: 64, why: 'an ISO-8601 duration' },
    'TaskGpuSpecificationInput.gpu': { maxLength: 64, why: 'a GPU name such as L40S' },
    'TaskGpuSpecificationInput.instanceType': { maxLength: 128, why: 'an instance type name' },
    'TaskGpuSpecificationInput.clusters': { maxItems: 64, maxLength: 128, why: 'cluster ids or names' },
    'TaskGpuSpecificationInput.regions': { maxItems: 32, maxLength: 64, why: 'region names' },
    'Query.tasks(after:)': { maxLength: 256, why: 'a page cursor (ours are under 128 characters)' },
    'Query.instances(ids:)': { maxItems: 1000, why: 'instances asked for at once; ask in pages' },
    'Query.tasksByIds(ids:)': { maxItems: 1000, why: 'tasks asked for at once; ask in pages' },
    'Subscription.instanceStatusChanged(after:)': {
      maxLength: 256,
      why: 'a resume cursor (ours are under 64 characters)',
    },
    'Subscription.taskStatusChanged(after:)': {
      maxLength: 256,
      why: 'a resume cursor (ours are under 64 characters)',
    },
  },
};

/** The bound of one schema coordinate, for the checks resolvers keep as a second line. */
export function inputLimit(coordinate: string, limits: InputLimits = inputLimits): InputLimit {
  const entry = limits.fields[coordinate];
  if (!entry) throw new Error(`no input limit for ${coordinate}`);
  return entry;
}

/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type ContainerWorkloadInput = {
  args?: Array<string> | null | undefined;
  environment?: Array<KeyValueInput> | null | undefined;
  image: string;
};

export type CreateFunctionInput = {
  container?: ContainerWorkloadInput | null | undefined;
  health?: HealthInput | null | undefined;
  helm?: HelmWorkloadInput | null | undefined;
  inferencePort?: number | null | undefined;
  inferenceUrl?: string | null | undefined;
  name: string;
  operator?: OperatorWorkloadInput | null | undefined;
};

export type DeployInput = {
  gpuSpecifications: Array<GpuSpecificationInput>;
  /** Operator workloads only: RFC 7396 merge patches applied to the base manifests. */
  manifestMergePatches?: Array<unknown> | null | undefined;
  serviceName?: string | null | undefined;
  servicePort?: number | null | undefined;
};

export type FunctionStatus =
  | 'ACTIVE'
  | 'DEGRADED'
  | 'DEGRADING'
  | 'DELETED'
  | 'DEPLOYING'
  | 'ERROR'
  | 'INACTIVE';

export type GpuSpecificationInput = {
  attributes?: Array<string> | null | undefined;
  clusters?: Array<string> | null | undefined;
  /** Helm values; becomes the first revision. */
  configuration?: unknown;
  gpu: string;
  instanceType: string;
  maxInstances: number;
  maxRequestConcurrency?: number | null | undefined;
  minInstances: number;
  regions?: Array<string> | null | undefined;
};

export type HealthInput = {
  expectedStatusCode?: number | null | undefined;
  port: number;
  protocol: HealthProtocol;
  timeout?: string | null | undefined;
  uri: string;
};

export type HealthProtocol =
  | 'HTTP'
  | 'gRPC';

export type HelmWorkloadInput = {
  /** An oci://…/NAME-X.Y.Z.tgz URI. */
  chart: string;
  serviceName: string;
};

export type InstanceState =
  | 'ACTIVE'
  | 'FAILED'
  | 'STARTING'
  | 'TERMINATED'
  | 'UPDATING';

export type InstanceStatusEventKind =
  | 'SNAPSHOT'
  | 'TRANSITION';

export type KeyValueInput = {
  key: string;
  value: string;
};

export type OperatorWorkloadInput = {
  manifests: Array<unknown>;
  operatorTypes: Array<string>;
};

export type RevisionInput = {
  configuration?: unknown;
  manifestMergePatches?: Array<unknown> | null | undefined;
};

export type RevisionStatus =
  | 'APPLIED'
  | 'FAILED'
  | 'PENDING'
  | 'ROLLING_OUT'
  | 'SUPERSEDED';

export type UpdateGpuSpecificationInput = {
  maxInstances?: number | null | undefined;
  minInstances?: number | null | undefined;
  revision?: RevisionInput | null | undefined;
};

export type WorkloadType =
  | 'CONTAINER'
  | 'HELM'
  | 'OPERATOR';

export type FunctionVersionFieldsFragment = { id: string, status: FunctionStatus, workloadType: WorkloadType, containerImage: string | null, containerArgs: Array<string> | null, helmChart: string | null, helmChartServiceName: string | null, operatorTypes: Array<string> | null, inferenceUrl: string | null, inferencePort: number | null, createdAt: string };

export type CreateFunctionMutationVariables = Exact<{
  input: CreateFunctionInput;
}>;


export type CreateFunctionMutation = { createFunction: { id: string, status: FunctionStatus, workloadType: WorkloadType, containerImage: string | null, containerArgs: Array<string> | null, helmChart: string | null, helmChartServiceName: string | null, operatorTypes: Array<string> | null, inferenceUrl: string | null, inferencePort: number | null, createdAt: string, function: { id: string, name: string, ncaId: string } } };

export type CreateFunctionVersionMutationVariables = Exact<{
  functionId: string | number;
  input: CreateFunctionInput;
}>;


export type CreateFunctionVersionMutation = { createFunctionVersion: { id: string, status: FunctionStatus, workloadType: WorkloadType, containerImage: string | null, containerArgs: Array<string> | null, helmChart: string | null, helmChartServiceName: string | null, operatorTypes: Array<string> | null, inferenceUrl: string | null, inferencePort: number | null, createdAt: string, function: { id: string, name: string, ncaId: string } } };

export type DeployFunctionVersionMutationVariables = Exact<{
  versionId: string | number;
  input: DeployInput;
}>;


export type DeployFunctionVersionMutation = { deployFunctionVersion: { id: string, gpuSpecifications: Array<{ id: string, gpu: string, instanceType: string, minInstances: number, maxInstances: number, clusters: Array<string> }> } };

export type UndeployFunctionVersionMutationVariables = Exact<{
  versionId: string | number;
  graceful?: boolean | null | undefined;
}>;


export type UndeployFunctionVersionMutation = { undeployFunctionVersion: { id: string, status: FunctionStatus } };

export type FunctionVersionQueryVariables = Exact<{
  id: string | number;
}>;


export type FunctionVersionQuery = { functionVersion: { manifests: Array<unknown> | null, id: string, status: FunctionStatus, workloadType: WorkloadType, containerImage: string | null, containerArgs: Array<string> | null, helmChart: string | null, helmChartServiceName: string | null, operatorTypes: Array<string> | null, inferenceUrl: string | null, inferencePort: number | null, createdAt: string, function: { id: string, name: string }, deployment: { id: string, gpuSpecifications: Array<{ id: string, gpu: string, instanceType: string, minInstances: number, maxInstances: number, latestRevision: { id: string, status: RevisionStatus } | null }> } | null } | null };

export type FunctionQueryVariables = Exact<{
  id: string | number;
}>;


export type FunctionQuery = { function: { id: string, name: string, ncaId: string, versions: Array<{ id: string, status: FunctionStatus, workloadType: WorkloadType, containerImage: string | null, containerArgs: Array<string> | null, helmChart: string | null, helmChartServiceName: string | null, operatorTypes: Array<string> | null, inferenceUrl: string | null, inferencePort: number | null, createdAt: string, deployment: { id: string, gpuSpecifications: Array<{ id: string, gpu: string, instanceType: string, minInstances: number, maxInstances: number }> } | null }> } | null };

export type FunctionsQueryVariables = Exact<{ [key: string]: never; }>;


export type FunctionsQuery = { functions: Array<{ id: string, name: string, ncaId: string, versions: Array<{ id: string, status: FunctionStatus, workloadType: WorkloadType, createdAt: string }> }> };

export type ClustersQueryVariables = Exact<{ [key: string]: never; }>;


export type ClustersQuery = { clusters: Array<{ id: string, name: string, attributes: Array<string>, regions: Array<string>, gpus: Array<{ name: string, instanceTypes: Array<string> }> }> };

export type OperatorTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type OperatorTypesQuery = { operatorTypes: Array<{ name: string, kinds: Array<string>, clusterAttribute: string, apiVersions: Array<string> }> };

export type RevisionFieldsFragment = { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null };

export type InstanceFieldsFragment = { id: string, state: InstanceState, revisionId: string | null, updatedAt: string, cluster: { id: string, name: string }, gpuSpecification: { id: string } };

export type GpuSpecificationQueryVariables = Exact<{
  id: string | number;
}>;


export type GpuSpecificationQuery = { gpuSpecification: { id: string, gpu: string, instanceType: string, minInstances: number, maxInstances: number, maxRequestConcurrency: number, clusters: Array<string>, regions: Array<string>, attributes: Array<string>, configuration: unknown, deployment: { id: string, functionVersion: { id: string, function: { id: string, name: string } } }, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, instances: Array<{ id: string, state: InstanceState, revisionId: string | null, updatedAt: string, cluster: { id: string, name: string }, gpuSpecification: { id: string } }> } | null };

export type UpdateGpuSpecificationMutationVariables = Exact<{
  id: string | number;
  input: UpdateGpuSpecificationInput;
}>;


export type UpdateGpuSpecificationMutation = { updateGpuSpecification: { id: string, minInstances: number, maxInstances: number, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null } };

export type RollbackGpuSpecificationMutationVariables = Exact<{
  id: string | number;
}>;


export type RollbackGpuSpecificationMutation = { rollbackGpuSpecification: { id: string, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null } };

export type InstanceQueryVariables = Exact<{
  id: string | number;
}>;


export type InstanceQuery = { instance: { id: string, state: InstanceState, revisionId: string | null, updatedAt: string, cluster: { id: string, name: string }, gpuSpecification: { id: string } } | null };

export type InstancesQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;


export type InstancesQuery = { instances: Array<{ id: string, state: InstanceState, revisionId: string | null, updatedAt: string, cluster: { id: string, name: string }, gpuSpecification: { id: string } } | null> };

export type SpecUpdateActionsQueryVariables = Exact<{
  id: string | number;
}>;


export type SpecUpdateActionsQuery = { gpuSpecification: { id: string, updateActions: Array<{ id: string, revisionId: string, createdAt: string, targets: Array<{ id: string, cluster: { id: string } }> }> } | null };

export type InstanceStatusChangedSubscriptionVariables = Exact<{
  functionId?: string | number | null | undefined;
  versionId?: string | number | null | undefined;
  gpuSpecificationId?: string | number | null | undefined;
  instanceId?: string | number | null | undefined;
  after?: string | null | undefined;
  snapshot?: boolean | null | undefined;
}>;


export type InstanceStatusChangedSubscription = { instanceStatusChanged: { cursor: string, state: InstanceState, previousState: InstanceState | null, revisionId: string | null, at: string, message: string | null, kind: InstanceStatusEventKind, lag: { skippedEvents: number, resumeAfter: string } | null, instance: { id: string, state: InstanceState, revisionId: string | null, cluster: { id: string, name: string }, gpuSpecification: { id: string } } } };

export const FunctionVersionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FunctionVersionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FunctionVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"containerImage"}},{"kind":"Field","name":{"kind":"Name","value":"containerArgs"}},{"kind":"Field","name":{"kind":"Name","value":"helmChart"}},{"kind":"Field","name":{"kind":"Name","value":"helmChartServiceName"}},{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"}},{"kind":"Field","name":{"kind":"Name","value":"inferenceUrl"}},{"kind":"Field","name":{"kind":"Name","value":"inferencePort"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<FunctionVersionFieldsFragment, unknown>;
export const RevisionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<RevisionFieldsFragment, unknown>;
export const InstanceFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InstanceFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Instance"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<InstanceFieldsFragment, unknown>;
export const CreateFunctionDocument = {"__meta__":{"hash":"sha256:3271f6965bfa1da368a0764ed12f74d66bf8085d85c8003a1a89cd34eb36daa8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateFunction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateFunctionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createFunction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FunctionVersionFields"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FunctionVersionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FunctionVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"containerImage"}},{"kind":"Field","name":{"kind":"Name","value":"containerArgs"}},{"kind":"Field","name":{"kind":"Name","value":"helmChart"}},{"kind":"Field","name":{"kind":"Name","value":"helmChartServiceName"}},{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"}},{"kind":"Field","name":{"kind":"Name","value":"inferenceUrl"}},{"kind":"Field","name":{"kind":"Name","value":"inferencePort"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<CreateFunctionMutation, CreateFunctionMutationVariables>;
export const CreateFunctionVersionDocument = {"__meta__":{"hash":"sha256:5a85458f6eb483a75ec73f3af9cd5c870a00d598e9a93f27bf4d168bfc1f5c57"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateFunctionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"functionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FunctionVersionFields"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FunctionVersionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FunctionVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"containerImage"}},{"kind":"Field","name":{"kind":"Name","value":"containerArgs"}},{"kind":"Field","name":{"kind":"Name","value":"helmChart"}},{"kind":"Field","name":{"kind":"Name","value":"helmChartServiceName"}},{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"}},{"kind":"Field","name":{"kind":"Name","value":"inferenceUrl"}},{"kind":"Field","name":{"kind":"Name","value":"inferencePort"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<CreateFunctionVersionMutation, CreateFunctionVersionMutationVariables>;
export const DeployFunctionVersionDocument = {"__meta__":{"hash":"sha256:b425d910c47aec7c7b985b635960d6b26e91644b57147cd656e0bf32ba275f2a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeployFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeployInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deployFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}},{"kind":"Field","name":{"kind":"Name","value":"clusters"}}]}}]}}]}}]} as unknown as DocumentNode<DeployFunctionVersionMutation, DeployFunctionVersionMutationVariables>;
export const UndeployFunctionVersionDocument = {"__meta__":{"hash":"sha256:0530d8e3b313e902bf2817ddd9050317f4f5be7a2423af42e496f6b173d5a5c3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UndeployFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"graceful"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undeployFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"graceful"},"value":{"kind":"Variable","name":{"kind":"Name","value":"graceful"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<UndeployFunctionVersionMutation, UndeployFunctionVersionMutationVariables>;
export const FunctionVersionDocument = {"__meta__":{"hash":"sha256:e30fc123b9ac1ae147c5b8ecb76a917dbc7af53d1bb1803c5f5a127d4939e14f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"functionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FunctionVersionFields"}},{"kind":"Field","name":{"kind":"Name","value":"manifests"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deployment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FunctionVersionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FunctionVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"containerImage"}},{"kind":"Field","name":{"kind":"Name","value":"containerArgs"}},{"kind":"Field","name":{"kind":"Name","value":"helmChart"}},{"kind":"Field","name":{"kind":"Name","value":"helmChartServiceName"}},{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"}},{"kind":"Field","name":{"kind":"Name","value":"inferenceUrl"}},{"kind":"Field","name":{"kind":"Name","value":"inferencePort"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<FunctionVersionQuery, FunctionVersionQueryVariables>;
export const FunctionDocument = {"__meta__":{"hash":"sha256:24db6e3c9e04aa255c6abf93ca86eb76a07ad6c031adedcb155edf8250dafcf0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Function"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"function"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"FunctionVersionFields"}},{"kind":"Field","name":{"kind":"Name","value":"deployment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"FunctionVersionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FunctionVersion"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"containerImage"}},{"kind":"Field","name":{"kind":"Name","value":"containerArgs"}},{"kind":"Field","name":{"kind":"Name","value":"helmChart"}},{"kind":"Field","name":{"kind":"Name","value":"helmChartServiceName"}},{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"}},{"kind":"Field","name":{"kind":"Name","value":"inferenceUrl"}},{"kind":"Field","name":{"kind":"Name","value":"inferencePort"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<FunctionQuery, FunctionQueryVariables>;
export const FunctionsDocument = {"__meta__":{"hash":"sha256:06cab48652bebca00fa98074269571b6a313c756d0030a27a357a270abf86af8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Functions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"functions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<FunctionsQuery, FunctionsQueryVariables>;
export const ClustersDocument = {"__meta__":{"hash":"sha256:4ef5f34f17b8b19b8bedc1ec9dc2805f952988ed3741895b238e69b679c23243"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Clusters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clusters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"attributes"}},{"kind":"Field","name":{"kind":"Name","value":"regions"}},{"kind":"Field","name":{"kind":"Name","value":"gpus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"instanceTypes"}}]}}]}}]}}]} as unknown as DocumentNode<ClustersQuery, ClustersQueryVariables>;
export const OperatorTypesDocument = {"__meta__":{"hash":"sha256:1862463d62c984877009e5cd6c5954603a5a99d8228558f38f31db1729645be9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OperatorTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"clusterAttribute"}},{"kind":"Field","name":{"kind":"Name","value":"apiVersions"}}]}}]}}]} as unknown as DocumentNode<OperatorTypesQuery, OperatorTypesQueryVariables>;
export const GpuSpecificationDocument = {"__meta__":{"hash":"sha256:d91940f7001ff24c12a9372b43b5bc795bd263f065ed355f388a2d1c4aa2c325"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxRequestConcurrency"}},{"kind":"Field","name":{"kind":"Name","value":"clusters"}},{"kind":"Field","name":{"kind":"Name","value":"regions"}},{"kind":"Field","name":{"kind":"Name","value":"attributes"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"deployment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"functionVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"instances"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"InstanceFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InstanceFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Instance"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<GpuSpecificationQuery, GpuSpecificationQueryVariables>;
export const UpdateGpuSpecificationDocument = {"__meta__":{"hash":"sha256:94f547c8fbab8dd4bed41150b0f779af7fd440456202ef38db6708ed719bf6bd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateGpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateGpuSpecificationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateGpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<UpdateGpuSpecificationMutation, UpdateGpuSpecificationMutationVariables>;
export const RollbackGpuSpecificationDocument = {"__meta__":{"hash":"sha256:f277b8a0122431b413d286eafcd4ce4ead4507efeb7f6d18f6d8fd4e92cb170f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RollbackGpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollbackGpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<RollbackGpuSpecificationMutation, RollbackGpuSpecificationMutationVariables>;
export const InstanceDocument = {"__meta__":{"hash":"sha256:fe1885f0d0e52acbd3cf64a7f524a5cb0324a44d5036100acd54858db1d3b5c4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Instance"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"instance"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"InstanceFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InstanceFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Instance"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<InstanceQuery, InstanceQueryVariables>;
export const InstancesDocument = {"__meta__":{"hash":"sha256:34d911d401725684078e804552562a74c8af7c144532ff4b950bbaa126f139b3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Instances"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"instances"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"InstanceFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"InstanceFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Instance"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<InstancesQuery, InstancesQueryVariables>;
export const SpecUpdateActionsDocument = {"__meta__":{"hash":"sha256:16035a6c6ae87fbce75491d429a52736bf387e7948b33834e6cfb7551969663c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SpecUpdateActions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"updateActions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"targets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SpecUpdateActionsQuery, SpecUpdateActionsQueryVariables>;
export const InstanceStatusChangedDocument = {"__meta__":{"hash":"sha256:3c13d3068e90054ac094ceb03cc918e6084c8f6fbea2ed2c43caea2d42b3e34d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"InstanceStatusChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gpuSpecificationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"snapshot"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"instanceStatusChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"functionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"gpuSpecificationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gpuSpecificationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"snapshot"},"value":{"kind":"Variable","name":{"kind":"Name","value":"snapshot"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"previousState"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"lag"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"skippedEvents"}},{"kind":"Field","name":{"kind":"Name","value":"resumeAfter"}}]}},{"kind":"Field","name":{"kind":"Name","value":"instance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<InstanceStatusChangedSubscription, InstanceStatusChangedSubscriptionVariables>;
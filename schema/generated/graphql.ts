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

export type CreateFunctionMutationVariables = Exact<{
  input: CreateFunctionInput;
}>;


export type CreateFunctionMutation = { createFunction: { id: string, status: FunctionStatus, workloadType: WorkloadType, function: { id: string, name: string, ncaId: string } } };

export type CreateFunctionVersionMutationVariables = Exact<{
  functionId: string | number;
  input: CreateFunctionInput;
}>;


export type CreateFunctionVersionMutation = { createFunctionVersion: { id: string, status: FunctionStatus, workloadType: WorkloadType } };

export type DeployFunctionVersionMutationVariables = Exact<{
  versionId: string | number;
  input: DeployInput;
}>;


export type DeployFunctionVersionMutation = { deployFunctionVersion: { id: string, gpuSpecifications: Array<{ id: string, gpu: string, instanceType: string, minInstances: number, maxInstances: number }> } };

export type UndeployFunctionVersionMutationVariables = Exact<{
  versionId: string | number;
  graceful?: boolean | null | undefined;
}>;


export type UndeployFunctionVersionMutation = { undeployFunctionVersion: { id: string, status: FunctionStatus } };

export type FunctionVersionQueryVariables = Exact<{
  id: string | number;
}>;


export type FunctionVersionQuery = { functionVersion: { id: string, status: FunctionStatus, workloadType: WorkloadType, function: { id: string, name: string }, deployment: { id: string, gpuSpecifications: Array<{ id: string }> } | null } | null };

export type FunctionsQueryVariables = Exact<{ [key: string]: never; }>;


export type FunctionsQuery = { functions: Array<{ id: string, name: string, ncaId: string, versions: Array<{ id: string, status: FunctionStatus }> }> };

export type ClustersQueryVariables = Exact<{ [key: string]: never; }>;


export type ClustersQuery = { clusters: Array<{ id: string, name: string, attributes: Array<string>, gpus: Array<{ name: string, instanceTypes: Array<string> }> }> };

export type OperatorTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type OperatorTypesQuery = { operatorTypes: Array<{ name: string, kinds: Array<string>, clusterAttribute: string, apiVersions: Array<string> }> };

export type RevisionFieldsFragment = { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null };

export type GpuSpecificationQueryVariables = Exact<{
  id: string | number;
}>;


export type GpuSpecificationQuery = { gpuSpecification: { id: string, minInstances: number, maxInstances: number, configuration: unknown, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, instances: Array<{ id: string, state: InstanceState, revisionId: string | null, cluster: { id: string, name: string } }> } | null };

export type UpdateGpuSpecificationMutationVariables = Exact<{
  id: string | number;
  input: UpdateGpuSpecificationInput;
}>;


export type UpdateGpuSpecificationMutation = { updateGpuSpecification: { id: string, minInstances: number, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null } };

export type RollbackGpuSpecificationMutationVariables = Exact<{
  id: string | number;
}>;


export type RollbackGpuSpecificationMutation = { rollbackGpuSpecification: { id: string, latestRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null, lastAppliedRevision: { id: string, status: RevisionStatus, configuration: unknown, manifestMergePatches: Array<unknown> | null, createdAt: string, appliedAt: string | null, failureReason: string | null, supersedes: string | null, deadline: string | null } | null } };

export type InstanceQueryVariables = Exact<{
  id: string | number;
}>;


export type InstanceQuery = { instance: { id: string, state: InstanceState, revisionId: string | null, updatedAt: string, cluster: { id: string }, gpuSpecification: { id: string } } | null };

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

export const RevisionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<RevisionFieldsFragment, unknown>;
export const CreateFunctionDocument = {"__meta__":{"hash":"sha256:5e8002c8546008441145112ccf809b761202bbea1d4a33fff7340b31b927e8b0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateFunction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateFunctionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createFunction"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}}]}}]}}]}}]} as unknown as DocumentNode<CreateFunctionMutation, CreateFunctionMutationVariables>;
export const CreateFunctionVersionDocument = {"__meta__":{"hash":"sha256:b5e3e1b0db612c89d1153ef734996cf0915ff7c691c799e4ef8cb78a28de6a36"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateFunctionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"functionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}}]}}]}}]} as unknown as DocumentNode<CreateFunctionVersionMutation, CreateFunctionVersionMutationVariables>;
export const DeployFunctionVersionDocument = {"__meta__":{"hash":"sha256:09e2ef908cffacf101df2a2d09a7d9791e0c729211b4183de5684c67954f2fe7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeployFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeployInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deployFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"}},{"kind":"Field","name":{"kind":"Name","value":"instanceType"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}}]}}]}}]}}]} as unknown as DocumentNode<DeployFunctionVersionMutation, DeployFunctionVersionMutationVariables>;
export const UndeployFunctionVersionDocument = {"__meta__":{"hash":"sha256:0530d8e3b313e902bf2817ddd9050317f4f5be7a2423af42e496f6b173d5a5c3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UndeployFunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"graceful"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"undeployFunctionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"graceful"},"value":{"kind":"Variable","name":{"kind":"Name","value":"graceful"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<UndeployFunctionVersionMutation, UndeployFunctionVersionMutationVariables>;
export const FunctionVersionDocument = {"__meta__":{"hash":"sha256:5078655022f6fbef1763a9e5c5d039628c08d43b498b0c988e90fb8ffbf8c5ba"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FunctionVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"functionVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"workloadType"}},{"kind":"Field","name":{"kind":"Name","value":"function"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deployment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FunctionVersionQuery, FunctionVersionQueryVariables>;
export const FunctionsDocument = {"__meta__":{"hash":"sha256:a6d8e0ad01927fa567d73b1bc9204b3ce7ff561bd722826efdd4371ac1244e51"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Functions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"functions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ncaId"}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<FunctionsQuery, FunctionsQueryVariables>;
export const ClustersDocument = {"__meta__":{"hash":"sha256:ddad68f95b280ddd235365bd3d6e6b90d1abab5df03a627c5da3bd860523586b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Clusters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clusters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"attributes"}},{"kind":"Field","name":{"kind":"Name","value":"gpus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"instanceTypes"}}]}}]}}]}}]} as unknown as DocumentNode<ClustersQuery, ClustersQueryVariables>;
export const OperatorTypesDocument = {"__meta__":{"hash":"sha256:1862463d62c984877009e5cd6c5954603a5a99d8228558f38f31db1729645be9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OperatorTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"operatorTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"clusterAttribute"}},{"kind":"Field","name":{"kind":"Name","value":"apiVersions"}}]}}]}}]} as unknown as DocumentNode<OperatorTypesQuery, OperatorTypesQueryVariables>;
export const GpuSpecificationDocument = {"__meta__":{"hash":"sha256:c6e76df0259df9534625ea1570c17e9e839d73fbdd55a503277847c886d8fa52"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"maxInstances"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"instances"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<GpuSpecificationQuery, GpuSpecificationQueryVariables>;
export const UpdateGpuSpecificationDocument = {"__meta__":{"hash":"sha256:723e277a6059cabecd996aab9a2652ebf76d483c337bbc4fe0e3f84c6985a1ec"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateGpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateGpuSpecificationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateGpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minInstances"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<UpdateGpuSpecificationMutation, UpdateGpuSpecificationMutationVariables>;
export const RollbackGpuSpecificationDocument = {"__meta__":{"hash":"sha256:f277b8a0122431b413d286eafcd4ce4ead4507efeb7f6d18f6d8fd4e92cb170f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RollbackGpuSpecification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollbackGpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"latestRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RevisionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"configuration"}},{"kind":"Field","name":{"kind":"Name","value":"manifestMergePatches"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"appliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"failureReason"}},{"kind":"Field","name":{"kind":"Name","value":"supersedes"}},{"kind":"Field","name":{"kind":"Name","value":"deadline"}}]}}]} as unknown as DocumentNode<RollbackGpuSpecificationMutation, RollbackGpuSpecificationMutationVariables>;
export const InstanceDocument = {"__meta__":{"hash":"sha256:176c7227d78c5ece30d4609552285cf6d60707760479f7ddd2c6c274277f15ee"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Instance"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"instance"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<InstanceQuery, InstanceQueryVariables>;
export const SpecUpdateActionsDocument = {"__meta__":{"hash":"sha256:16035a6c6ae87fbce75491d429a52736bf387e7948b33834e6cfb7551969663c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SpecUpdateActions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"updateActions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"targets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SpecUpdateActionsQuery, SpecUpdateActionsQueryVariables>;
export const InstanceStatusChangedDocument = {"__meta__":{"hash":"sha256:3c13d3068e90054ac094ceb03cc918e6084c8f6fbea2ed2c43caea2d42b3e34d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"InstanceStatusChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"gpuSpecificationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"snapshot"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"instanceStatusChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"functionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"functionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"gpuSpecificationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"gpuSpecificationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"snapshot"},"value":{"kind":"Variable","name":{"kind":"Name","value":"snapshot"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"previousState"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"lag"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"skippedEvents"}},{"kind":"Field","name":{"kind":"Name","value":"resumeAfter"}}]}},{"kind":"Field","name":{"kind":"Name","value":"instance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"revisionId"}},{"kind":"Field","name":{"kind":"Name","value":"cluster"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpuSpecification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<InstanceStatusChangedSubscription, InstanceStatusChangedSubscriptionVariables>;
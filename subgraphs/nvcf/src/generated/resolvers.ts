import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { FunctionRecord, VersionRecord, DeploymentRecord, SpecRecord, Revision as RevisionRecord, RolloutProgress as RolloutProgressRecord, Health as HealthRecord } from '../model.js';
import type { NvcfContext } from '../resolvers.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO-8601 date-time string. */
  DateTime: { input: string; output: string; }
  /** Any JSON value. */
  JSON: { input: unknown; output: unknown; }
  _FieldSet: { input: unknown; output: unknown; }
};

export type ContainerWorkloadInput = {
  args?: InputMaybe<Array<Scalars['String']['input']>>;
  environment?: InputMaybe<Array<KeyValueInput>>;
  image: Scalars['String']['input'];
};

export type CreateFunctionInput = {
  container?: InputMaybe<ContainerWorkloadInput>;
  health?: InputMaybe<HealthInput>;
  helm?: InputMaybe<HelmWorkloadInput>;
  inferencePort?: InputMaybe<Scalars['Int']['input']>;
  inferenceUrl?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  operator?: InputMaybe<OperatorWorkloadInput>;
};

export type DeployInput = {
  gpuSpecifications: Array<GpuSpecificationInput>;
  /** Operator workloads only: RFC 7396 merge patches applied to the base manifests. */
  manifestMergePatches?: InputMaybe<Array<Scalars['JSON']['input']>>;
  serviceName?: InputMaybe<Scalars['String']['input']>;
  servicePort?: InputMaybe<Scalars['Int']['input']>;
};

export type Deployment = {
  __typename?: 'Deployment';
  functionVersion: FunctionVersion;
  gpuSpecifications: Array<GpuSpecification>;
  id: Scalars['ID']['output'];
  manifestMergePatches?: Maybe<Array<Scalars['JSON']['output']>>;
  serviceName?: Maybe<Scalars['String']['output']>;
  servicePort?: Maybe<Scalars['Int']['output']>;
};

export type Function = {
  __typename?: 'Function';
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  ncaId: Scalars['ID']['output'];
  versions: Array<FunctionVersion>;
};

export type FunctionStatus =
  | 'ACTIVE'
  | 'DEGRADED'
  | 'DEGRADING'
  | 'DELETED'
  | 'DEPLOYING'
  | 'ERROR'
  | 'INACTIVE';

export type FunctionVersion = {
  __typename?: 'FunctionVersion';
  containerArgs?: Maybe<Array<Scalars['String']['output']>>;
  containerImage?: Maybe<Scalars['String']['output']>;
  createdAt: Scalars['DateTime']['output'];
  deployment?: Maybe<Deployment>;
  function: Function;
  health?: Maybe<Health>;
  helmChart?: Maybe<Scalars['String']['output']>;
  helmChartServiceName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  inferencePort?: Maybe<Scalars['Int']['output']>;
  inferenceUrl?: Maybe<Scalars['String']['output']>;
  manifests?: Maybe<Array<Scalars['JSON']['output']>>;
  operatorTypes?: Maybe<Array<Scalars['String']['output']>>;
  status: FunctionStatus;
  workloadType: WorkloadType;
};

export type GpuSpecification = {
  __typename?: 'GpuSpecification';
  attributes: Array<Scalars['String']['output']>;
  clusters: Array<Scalars['String']['output']>;
  /** The configuration of the latest revision. */
  configuration?: Maybe<Scalars['JSON']['output']>;
  deployment: Deployment;
  gpu: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  instanceType: Scalars['String']['output'];
  lastAppliedRevision?: Maybe<Revision>;
  latestRevision?: Maybe<Revision>;
  maxInstances: Scalars['Int']['output'];
  maxRequestConcurrency: Scalars['Int']['output'];
  minInstances: Scalars['Int']['output'];
  regions: Array<Scalars['String']['output']>;
};

export type GpuSpecificationInput = {
  attributes?: InputMaybe<Array<Scalars['String']['input']>>;
  clusters?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Helm values; becomes the first revision. */
  configuration?: InputMaybe<Scalars['JSON']['input']>;
  gpu: Scalars['String']['input'];
  instanceType: Scalars['String']['input'];
  maxInstances: Scalars['Int']['input'];
  maxRequestConcurrency?: InputMaybe<Scalars['Int']['input']>;
  minInstances: Scalars['Int']['input'];
  regions?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type Health = {
  __typename?: 'Health';
  expectedStatusCode?: Maybe<Scalars['Int']['output']>;
  port: Scalars['Int']['output'];
  protocol: HealthProtocol;
  timeout?: Maybe<Scalars['String']['output']>;
  uri: Scalars['String']['output'];
};

export type HealthInput = {
  expectedStatusCode?: InputMaybe<Scalars['Int']['input']>;
  port: Scalars['Int']['input'];
  protocol: HealthProtocol;
  timeout?: InputMaybe<Scalars['String']['input']>;
  uri: Scalars['String']['input'];
};

export type HealthProtocol =
  | 'HTTP'
  | 'gRPC';

export type HelmWorkloadInput = {
  /** An oci://…/NAME-X.Y.Z.tgz URI. */
  chart: Scalars['String']['input'];
  serviceName: Scalars['String']['input'];
};

export type KeyValueInput = {
  key: Scalars['String']['input'];
  value: Scalars['String']['input'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Exactly one of container / helm / operator; creates a function and its first version. */
  createFunction: FunctionVersion;
  createFunctionVersion: FunctionVersion;
  deployFunctionVersion: Deployment;
  /** Roll forward to lastAppliedRevision. */
  rollbackGpuSpecification: GpuSpecification;
  undeployFunctionVersion: FunctionVersion;
  /** A new revision (the whole configuration) and/or new instance bounds. */
  updateGpuSpecification: GpuSpecification;
};


export type MutationCreateFunctionArgs = {
  input: CreateFunctionInput;
};


export type MutationCreateFunctionVersionArgs = {
  functionId: Scalars['ID']['input'];
  input: CreateFunctionInput;
};


export type MutationDeployFunctionVersionArgs = {
  input: DeployInput;
  versionId: Scalars['ID']['input'];
};


export type MutationRollbackGpuSpecificationArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUndeployFunctionVersionArgs = {
  graceful?: InputMaybe<Scalars['Boolean']['input']>;
  versionId: Scalars['ID']['input'];
};


export type MutationUpdateGpuSpecificationArgs = {
  id: Scalars['ID']['input'];
  input: UpdateGpuSpecificationInput;
};

export type OperatorType = {
  __typename?: 'OperatorType';
  apiVersions: Array<Scalars['String']['output']>;
  clusterAttribute: Scalars['String']['output'];
  kinds: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
};

export type OperatorWorkloadInput = {
  manifests: Array<Scalars['JSON']['input']>;
  operatorTypes: Array<Scalars['String']['input']>;
};

export type Query = {
  __typename?: 'Query';
  function?: Maybe<Function>;
  functionVersion?: Maybe<FunctionVersion>;
  /** The caller's tenant only. */
  functions: Array<Function>;
  gpuSpecification?: Maybe<GpuSpecification>;
  operatorTypes: Array<OperatorType>;
};


export type QueryFunctionArgs = {
  id: Scalars['ID']['input'];
};


export type QueryFunctionVersionArgs = {
  id: Scalars['ID']['input'];
};


export type QueryGpuSpecificationArgs = {
  id: Scalars['ID']['input'];
};

export type Revision = {
  __typename?: 'Revision';
  appliedAt?: Maybe<Scalars['DateTime']['output']>;
  configuration?: Maybe<Scalars['JSON']['output']>;
  createdAt: Scalars['DateTime']['output'];
  /** When a rollout not finished by then becomes FAILED. Set when ICMS takes the revision: null while it is PENDING (ICMS unavailable, it waits and is handed off once ICMS answers). */
  deadline?: Maybe<Scalars['DateTime']['output']>;
  failureReason?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  manifestMergePatches?: Maybe<Array<Scalars['JSON']['output']>>;
  /**
   * How far this revision's rollout has got over the instances it targets, counted from each
   * target's state now, whatever the revision's status (RolloutProgress says what each count
   * holds). Computed from one read of the specification's instance states, shared by every
   * revision of that specification in the request.
   */
  progress: RolloutProgress;
  status: RevisionStatus;
  /** The revision this one replaced while that one was still rolling out (it is SUPERSEDED). */
  supersedes?: Maybe<Scalars['ID']['output']>;
};

export type RevisionInput = {
  configuration?: InputMaybe<Scalars['JSON']['input']>;
  manifestMergePatches?: InputMaybe<Array<Scalars['JSON']['input']>>;
};

export type RevisionStatus =
  | 'APPLIED'
  | 'FAILED'
  | 'PENDING'
  | 'ROLLING_OUT'
  | 'SUPERSEDED';

/**
 * Where a revision's rollout stands. The instances in scope are the revision's targets: the
 * specification's instances when the revision was handed to ICMS (for a specification's first
 * revision, the instances its deployment launched). Instances launched later (a higher
 * minInstances) start on the latest revision but are not counted; a target that is TERMINATED
 * (scaled down, undeployed) leaves the scope. Every target in scope is counted in exactly one of
 * applied, updating, failed and pending, so total = applied + updating + failed + pending.
 *
 * The counts describe the targets as they are now, not as they were when the revision reached
 * its status: an APPLIED revision that is lastAppliedRevision while a newer one rolls out (or
 * after that one FAILED) loses applied and gains pending as its targets move on; a FAILED
 * revision keeps counting targets that still apply it. Only latestRevision and
 * lastAppliedRevision are kept, so a SUPERSEDED revision is never served; the instances that were
 * moving to it count as pending for the revision that superseded it until they move to that one.
 */
export type RolloutProgress = {
  __typename?: 'RolloutProgress';
  /**
   * Targets running this revision: ACTIVE on it, or UPDATING away from it to a newer revision
   * (they serve it until the newer one is ready). For the latest revision, applied = total
   * once it is APPLIED.
   */
  applied: Scalars['Int']['output'];
  /** When a rollout not finished by then becomes FAILED: the same as Revision.deadline. */
  deadline?: Maybe<Scalars['DateTime']['output']>;
  /**
   * Targets whose move to this revision failed: FAILED on it or while updating to it, or back
   * ACTIVE on an older revision after their update to this one failed permanently. For the
   * latest revision every FAILED target counts here, also one that failed to start: a FAILED
   * instance takes no further update, so this revision cannot reach it.
   */
  failed: Scalars['Int']['output'];
  /**
   * Every other target in scope: still on an older revision and not yet updating to this one
   * (an instance UPDATING to an older, superseded revision first counts here too), STARTING, or
   * not reported by its agent yet. For a revision that is no longer the latest, this also holds
   * the targets that moved on to a newer revision.
   */
  pending: Scalars['Int']['output'];
  /**
   * When the rollout started: when nvcf handed the revision to ICMS (for a first revision, when
   * its deployment launched the instances). Null while the revision is PENDING and for a revision
   * ICMS did not accept. Revisions rolled out before this field existed give their createdAt.
   */
  startedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The targets in scope: the revision's targets that are not TERMINATED. 0 for a revision without targets (PENDING, or not accepted by ICMS). */
  total: Scalars['Int']['output'];
  /**
   * Targets UPDATING towards this revision: their targetRevisionId is this revision, their
   * revisionId still the one they serve. An UPDATING target whose agent predates
   * targetRevisionId counts here for the latest revision.
   */
  updating: Scalars['Int']['output'];
};

export type UpdateGpuSpecificationInput = {
  /**
   * Optimistic concurrency: the update is stored only if latestRevision is still this revision
   * (read it, change the configuration, submit with its id). Otherwise CONFLICT, and nothing is
   * stored. Without it, the update replaces whatever revision is latest when it arrives.
   */
  expectedRevisionId?: InputMaybe<Scalars['ID']['input']>;
  maxInstances?: InputMaybe<Scalars['Int']['input']>;
  minInstances?: InputMaybe<Scalars['Int']['input']>;
  revision?: InputMaybe<RevisionInput>;
};

export type WorkloadType =
  | 'CONTAINER'
  | 'HELM'
  | 'OPERATOR';



export type ResolverTypeWrapper<T> = Promise<T> | T;

export type ReferenceResolver<TResult, TReference, TContext> = (
      reference: TReference,
      context: TContext,
      info: GraphQLResolveInfo
    ) => Promise<TResult> | TResult;

      type ScalarCheck<T, S> = S extends true ? T : NullableCheck<T, S>;
      type NullableCheck<T, S> = Maybe<T> extends T ? Maybe<ListCheck<NonNullable<T>, S>> : ListCheck<T, S>;
      type ListCheck<T, S> = T extends (infer U)[] ? NullableCheck<U, S>[] : GraphQLRecursivePick<T, S>;
      export type GraphQLRecursivePick<T, S> = { [K in keyof T & keyof S]: ScalarCheck<T[K], S[K]> };
    

export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

/** Mapping of federation types */
export type FederationTypes = {
  Deployment: Deployment;
  Function: Function;
  FunctionVersion: FunctionVersion;
  GpuSpecification: GpuSpecification;
};

/** Mapping of federation reference types */
export type FederationReferenceTypes = {
  Deployment:
    ( { __typename: 'Deployment' }
    & GraphQLRecursivePick<FederationTypes['Deployment'], {"id":true}> );
  Function:
    ( { __typename: 'Function' }
    & GraphQLRecursivePick<FederationTypes['Function'], {"id":true}> );
  FunctionVersion:
    ( { __typename: 'FunctionVersion' }
    & GraphQLRecursivePick<FederationTypes['FunctionVersion'], {"id":true}> );
  GpuSpecification:
    ( { __typename: 'GpuSpecification' }
    & GraphQLRecursivePick<FederationTypes['GpuSpecification'], {"id":true}> );
};



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  ContainerWorkloadInput: ContainerWorkloadInput;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  CreateFunctionInput: CreateFunctionInput;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DeployInput: DeployInput;
  Deployment: ResolverTypeWrapper<DeploymentRecord>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Function: ResolverTypeWrapper<FunctionRecord>;
  FunctionStatus: FunctionStatus;
  FunctionVersion: ResolverTypeWrapper<VersionRecord>;
  GpuSpecification: ResolverTypeWrapper<SpecRecord>;
  GpuSpecificationInput: GpuSpecificationInput;
  Health: ResolverTypeWrapper<HealthRecord>;
  HealthInput: HealthInput;
  HealthProtocol: HealthProtocol;
  HelmWorkloadInput: HelmWorkloadInput;
  JSON: ResolverTypeWrapper<Scalars['JSON']['output']>;
  KeyValueInput: KeyValueInput;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  OperatorType: ResolverTypeWrapper<OperatorType>;
  OperatorWorkloadInput: OperatorWorkloadInput;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Revision: ResolverTypeWrapper<RevisionRecord>;
  RevisionInput: RevisionInput;
  RevisionStatus: RevisionStatus;
  RolloutProgress: ResolverTypeWrapper<RolloutProgressRecord>;
  UpdateGpuSpecificationInput: UpdateGpuSpecificationInput;
  WorkloadType: WorkloadType;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  ContainerWorkloadInput: ContainerWorkloadInput;
  String: Scalars['String']['output'];
  CreateFunctionInput: CreateFunctionInput;
  Int: Scalars['Int']['output'];
  DateTime: Scalars['DateTime']['output'];
  DeployInput: DeployInput;
  Deployment: DeploymentRecord;
  ID: Scalars['ID']['output'];
  Function: FunctionRecord;
  FunctionVersion: VersionRecord;
  GpuSpecification: SpecRecord;
  GpuSpecificationInput: GpuSpecificationInput;
  Health: HealthRecord;
  HealthInput: HealthInput;
  HelmWorkloadInput: HelmWorkloadInput;
  JSON: Scalars['JSON']['output'];
  KeyValueInput: KeyValueInput;
  Mutation: Record<PropertyKey, never>;
  Boolean: Scalars['Boolean']['output'];
  OperatorType: OperatorType;
  OperatorWorkloadInput: OperatorWorkloadInput;
  Query: Record<PropertyKey, never>;
  Revision: RevisionRecord;
  RevisionInput: RevisionInput;
  RolloutProgress: RolloutProgressRecord;
  UpdateGpuSpecificationInput: UpdateGpuSpecificationInput;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DeploymentResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Deployment'] = ResolversParentTypes['Deployment'], FederationReferenceType extends FederationReferenceTypes['Deployment'] = FederationReferenceTypes['Deployment']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Deployment']> | FederationReferenceType, FederationReferenceType, ContextType>;
  functionVersion?: Resolver<ResolversTypes['FunctionVersion'], ParentType, ContextType>;
  gpuSpecifications?: Resolver<Array<ResolversTypes['GpuSpecification']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  manifestMergePatches?: Resolver<Maybe<Array<ResolversTypes['JSON']>>, ParentType, ContextType>;
  serviceName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  servicePort?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type FunctionResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Function'] = ResolversParentTypes['Function'], FederationReferenceType extends FederationReferenceTypes['Function'] = FederationReferenceTypes['Function']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Function']> | FederationReferenceType, FederationReferenceType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ncaId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  versions?: Resolver<Array<ResolversTypes['FunctionVersion']>, ParentType, ContextType>;
};

export type FunctionVersionResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['FunctionVersion'] = ResolversParentTypes['FunctionVersion'], FederationReferenceType extends FederationReferenceTypes['FunctionVersion'] = FederationReferenceTypes['FunctionVersion']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['FunctionVersion']> | FederationReferenceType, FederationReferenceType, ContextType>;
  containerArgs?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  containerImage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  deployment?: Resolver<Maybe<ResolversTypes['Deployment']>, ParentType, ContextType>;
  function?: Resolver<ResolversTypes['Function'], ParentType, ContextType>;
  health?: Resolver<Maybe<ResolversTypes['Health']>, ParentType, ContextType>;
  helmChart?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  helmChartServiceName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  inferencePort?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  inferenceUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  manifests?: Resolver<Maybe<Array<ResolversTypes['JSON']>>, ParentType, ContextType>;
  operatorTypes?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['FunctionStatus'], ParentType, ContextType>;
  workloadType?: Resolver<ResolversTypes['WorkloadType'], ParentType, ContextType>;
};

export type GpuSpecificationResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['GpuSpecification'] = ResolversParentTypes['GpuSpecification'], FederationReferenceType extends FederationReferenceTypes['GpuSpecification'] = FederationReferenceTypes['GpuSpecification']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['GpuSpecification']> | FederationReferenceType, FederationReferenceType, ContextType>;
  attributes?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  clusters?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  configuration?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  deployment?: Resolver<ResolversTypes['Deployment'], ParentType, ContextType>;
  gpu?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  instanceType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastAppliedRevision?: Resolver<Maybe<ResolversTypes['Revision']>, ParentType, ContextType>;
  latestRevision?: Resolver<Maybe<ResolversTypes['Revision']>, ParentType, ContextType>;
  maxInstances?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  maxRequestConcurrency?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  minInstances?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  regions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type HealthResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Health'] = ResolversParentTypes['Health']> = {
  expectedStatusCode?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  port?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  protocol?: Resolver<ResolversTypes['HealthProtocol'], ParentType, ContextType>;
  timeout?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  uri?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface JsonScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSON'], any> {
  name: 'JSON';
}

export type MutationResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createFunction?: Resolver<ResolversTypes['FunctionVersion'], ParentType, ContextType, RequireFields<MutationCreateFunctionArgs, 'input'>>;
  createFunctionVersion?: Resolver<ResolversTypes['FunctionVersion'], ParentType, ContextType, RequireFields<MutationCreateFunctionVersionArgs, 'functionId' | 'input'>>;
  deployFunctionVersion?: Resolver<ResolversTypes['Deployment'], ParentType, ContextType, RequireFields<MutationDeployFunctionVersionArgs, 'input' | 'versionId'>>;
  rollbackGpuSpecification?: Resolver<ResolversTypes['GpuSpecification'], ParentType, ContextType, RequireFields<MutationRollbackGpuSpecificationArgs, 'id'>>;
  undeployFunctionVersion?: Resolver<ResolversTypes['FunctionVersion'], ParentType, ContextType, RequireFields<MutationUndeployFunctionVersionArgs, 'graceful' | 'versionId'>>;
  updateGpuSpecification?: Resolver<ResolversTypes['GpuSpecification'], ParentType, ContextType, RequireFields<MutationUpdateGpuSpecificationArgs, 'id' | 'input'>>;
};

export type OperatorTypeResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['OperatorType'] = ResolversParentTypes['OperatorType']> = {
  apiVersions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  clusterAttribute?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kinds?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  function?: Resolver<Maybe<ResolversTypes['Function']>, ParentType, ContextType, RequireFields<QueryFunctionArgs, 'id'>>;
  functionVersion?: Resolver<Maybe<ResolversTypes['FunctionVersion']>, ParentType, ContextType, RequireFields<QueryFunctionVersionArgs, 'id'>>;
  functions?: Resolver<Array<ResolversTypes['Function']>, ParentType, ContextType>;
  gpuSpecification?: Resolver<Maybe<ResolversTypes['GpuSpecification']>, ParentType, ContextType, RequireFields<QueryGpuSpecificationArgs, 'id'>>;
  operatorTypes?: Resolver<Array<ResolversTypes['OperatorType']>, ParentType, ContextType>;
};

export type RevisionResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['Revision'] = ResolversParentTypes['Revision']> = {
  appliedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  configuration?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  deadline?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  failureReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  manifestMergePatches?: Resolver<Maybe<Array<ResolversTypes['JSON']>>, ParentType, ContextType>;
  progress?: Resolver<ResolversTypes['RolloutProgress'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['RevisionStatus'], ParentType, ContextType>;
  supersedes?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
};

export type RolloutProgressResolvers<ContextType = NvcfContext, ParentType extends ResolversParentTypes['RolloutProgress'] = ResolversParentTypes['RolloutProgress']> = {
  applied?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  deadline?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  failed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pending?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  total?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updating?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type Resolvers<ContextType = NvcfContext> = {
  DateTime?: GraphQLScalarType;
  Deployment?: DeploymentResolvers<ContextType>;
  Function?: FunctionResolvers<ContextType>;
  FunctionVersion?: FunctionVersionResolvers<ContextType>;
  GpuSpecification?: GpuSpecificationResolvers<ContextType>;
  Health?: HealthResolvers<ContextType>;
  JSON?: GraphQLScalarType;
  Mutation?: MutationResolvers<ContextType>;
  OperatorType?: OperatorTypeResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Revision?: RevisionResolvers<ContextType>;
  RolloutProgress?: RolloutProgressResolvers<ContextType>;
};


import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { ClusterRecord, InstanceRecord, UpdateActionRecord, SpecRef } from '../model.js';
import type { IcmsContext } from '../resolvers.js';
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
  DateTime: { input: string; output: string; }
  _FieldSet: { input: unknown; output: unknown; }
};

export type Cluster = {
  __typename?: 'Cluster';
  attributes: Array<Scalars['String']['output']>;
  gpus: Array<ClusterGpu>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  regions: Array<Scalars['String']['output']>;
};

export type ClusterGpu = {
  __typename?: 'ClusterGpu';
  /** GPUs of this kind the cluster has, which its instances and running tasks share; null: not limited. */
  capacity?: Maybe<Scalars['Int']['output']>;
  instanceTypes: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
};

export type GpuSpecification = {
  __typename?: 'GpuSpecification';
  id: Scalars['ID']['output'];
  /** Every current (not terminated) instance of the specification. */
  instances: Array<Instance>;
  /** In-place update actions ICMS recorded for this specification, newest first. */
  updateActions: Array<UpdateAction>;
};

export type Instance = {
  __typename?: 'Instance';
  cluster: Cluster;
  gpuSpecification: GpuSpecification;
  id: Scalars['ID']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** Clusters the caller may deploy to. */
  clusters: Array<Cluster>;
  instance?: Maybe<Instance>;
  /** Many instances at once, in the order asked; null for ids the caller cannot see. */
  instances: Array<Maybe<Instance>>;
};


export type QueryInstanceArgs = {
  id: Scalars['ID']['input'];
};


export type QueryInstancesArgs = {
  ids: Array<Scalars['ID']['input']>;
};

export type UpdateAction = {
  __typename?: 'UpdateAction';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  revisionId: Scalars['ID']['output'];
  /** The full instance set resolved when the action was recorded. */
  targets: Array<Instance>;
};



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
  Cluster: Cluster;
  GpuSpecification: GpuSpecification;
  Instance: Instance;
};

/** Mapping of federation reference types */
export type FederationReferenceTypes = {
  Cluster:
    ( { __typename: 'Cluster' }
    & GraphQLRecursivePick<FederationTypes['Cluster'], {"id":true}> );
  GpuSpecification:
    ( { __typename: 'GpuSpecification' }
    & GraphQLRecursivePick<FederationTypes['GpuSpecification'], {"id":true}> );
  Instance:
    ( { __typename: 'Instance' }
    & GraphQLRecursivePick<FederationTypes['Instance'], {"id":true}> );
};



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Cluster: ResolverTypeWrapper<ClusterRecord>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  ClusterGpu: ResolverTypeWrapper<ClusterGpu>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  GpuSpecification: ResolverTypeWrapper<SpecRef>;
  Instance: ResolverTypeWrapper<InstanceRecord>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  UpdateAction: ResolverTypeWrapper<UpdateActionRecord>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Cluster: ClusterRecord;
  String: Scalars['String']['output'];
  ID: Scalars['ID']['output'];
  ClusterGpu: ClusterGpu;
  Int: Scalars['Int']['output'];
  DateTime: Scalars['DateTime']['output'];
  GpuSpecification: SpecRef;
  Instance: InstanceRecord;
  Query: Record<PropertyKey, never>;
  UpdateAction: UpdateActionRecord;
  Boolean: Scalars['Boolean']['output'];
};

export type ClusterResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['Cluster'] = ResolversParentTypes['Cluster'], FederationReferenceType extends FederationReferenceTypes['Cluster'] = FederationReferenceTypes['Cluster']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Cluster']> | FederationReferenceType, FederationReferenceType, ContextType>;
  attributes?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  gpus?: Resolver<Array<ResolversTypes['ClusterGpu']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  regions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ClusterGpuResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['ClusterGpu'] = ResolversParentTypes['ClusterGpu']> = {
  capacity?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  instanceTypes?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type GpuSpecificationResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['GpuSpecification'] = ResolversParentTypes['GpuSpecification'], FederationReferenceType extends FederationReferenceTypes['GpuSpecification'] = FederationReferenceTypes['GpuSpecification']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['GpuSpecification']> | FederationReferenceType, FederationReferenceType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  instances?: Resolver<Array<ResolversTypes['Instance']>, ParentType, ContextType>;
  updateActions?: Resolver<Array<ResolversTypes['UpdateAction']>, ParentType, ContextType>;
};

export type InstanceResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['Instance'] = ResolversParentTypes['Instance'], FederationReferenceType extends FederationReferenceTypes['Instance'] = FederationReferenceTypes['Instance']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Instance']> | FederationReferenceType, FederationReferenceType, ContextType>;
  cluster?: Resolver<ResolversTypes['Cluster'], ParentType, ContextType>;
  gpuSpecification?: Resolver<ResolversTypes['GpuSpecification'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  clusters?: Resolver<Array<ResolversTypes['Cluster']>, ParentType, ContextType>;
  instance?: Resolver<Maybe<ResolversTypes['Instance']>, ParentType, ContextType, RequireFields<QueryInstanceArgs, 'id'>>;
  instances?: Resolver<Array<Maybe<ResolversTypes['Instance']>>, ParentType, ContextType, RequireFields<QueryInstancesArgs, 'ids'>>;
};

export type UpdateActionResolvers<ContextType = IcmsContext, ParentType extends ResolversParentTypes['UpdateAction'] = ResolversParentTypes['UpdateAction']> = {
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  revisionId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  targets?: Resolver<Array<ResolversTypes['Instance']>, ParentType, ContextType>;
};

export type Resolvers<ContextType = IcmsContext> = {
  Cluster?: ClusterResolvers<ContextType>;
  ClusterGpu?: ClusterGpuResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  GpuSpecification?: GpuSpecificationResolvers<ContextType>;
  Instance?: InstanceResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  UpdateAction?: UpdateActionResolvers<ContextType>;
};


import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { StatusContext } from '../resolvers.js';
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

export type Instance = {
  __typename?: 'Instance';
  id: Scalars['ID']['output'];
  revisionId?: Maybe<Scalars['ID']['output']>;
  state: InstanceState;
  /**
   * The revision this instance is moving to, for its current state: set while it is UPDATING
   * (revisionId is still the revision it serves) and when it is FAILED because an update
   * failed; null in every other state, and for states reported by agents older than this field.
   */
  targetRevisionId?: Maybe<Scalars['ID']['output']>;
  updatedAt: Scalars['DateTime']['output'];
};

export type InstanceState =
  | 'ACTIVE'
  | 'FAILED'
  | 'STARTING'
  | 'TERMINATED'
  | 'UPDATING';

export type InstanceStatusEvent = {
  __typename?: 'InstanceStatusEvent';
  at: Scalars['DateTime']['output'];
  /** Opaque, signed position in the status stream; pass it as `after` to resume. */
  cursor: Scalars['String']['output'];
  instance: Instance;
  /** TRANSITION, or SNAPSHOT for the current state sent first when snapshot: true. */
  kind: InstanceStatusEventKind;
  /**
   * Set when this subscriber fell behind: transitions of this instance before this one were
   * conflated away. Resubscribe with after: lag.resumeAfter to receive every one of them.
   */
  lag?: Maybe<StreamLag>;
  message?: Maybe<Scalars['String']['output']>;
  previousState?: Maybe<InstanceState>;
  /**
   * The revision the instance runs (serves) after this transition: on UPDATING still the one it
   * is moving away from, on the ACTIVE that completes an update the new one; null while
   * STARTING and on FAILED.
   */
  revisionId?: Maybe<Scalars['ID']['output']>;
  state: InstanceState;
  /**
   * The revision the instance is moving to. Set on UPDATING (revisionId stays the revision it
   * serves until the new one is ready) and on a FAILED that ended an update; null on every
   * other transition: the ACTIVE that completes an update carries the new revision in
   * revisionId, and an update that failed permanently ends in ACTIVE on the old revisionId
   * with a message naming the revision that failed. Null as well on events published by
   * agents older than this field.
   */
  targetRevisionId?: Maybe<Scalars['ID']['output']>;
};

export type InstanceStatusEventKind =
  | 'SNAPSHOT'
  | 'TRANSITION';

export type StreamLag = {
  __typename?: 'StreamLag';
  /** A cursor just before the first skipped transition. */
  resumeAfter: Scalars['String']['output'];
  /** How many transitions of this instance (or task) were skipped. */
  skippedEvents: Scalars['Int']['output'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /**
   * Every state transition of the matching instances of the caller's tenant, in stream order
   * (and per instance, never an older transition after a newer one). At least one filter is
   * required. `after` resumes from a cursor received earlier: exactly the events after it,
   * then live. `snapshot: true` first emits the current state of every matching instance
   * (kind SNAPSHOT), then the transitions from the same position.
   */
  instanceStatusChanged: InstanceStatusEvent;
};


export type SubscriptionInstanceStatusChangedArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  functionId?: InputMaybe<Scalars['ID']['input']>;
  gpuSpecificationId?: InputMaybe<Scalars['ID']['input']>;
  instanceId?: InputMaybe<Scalars['ID']['input']>;
  snapshot?: InputMaybe<Scalars['Boolean']['input']>;
  versionId?: InputMaybe<Scalars['ID']['input']>;
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
  Instance: Instance;
};

/** Mapping of federation reference types */
export type FederationReferenceTypes = {
  Instance:
    ( { __typename: 'Instance' }
    & GraphQLRecursivePick<FederationTypes['Instance'], {"id":true}> );
};



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  Instance: ResolverTypeWrapper<Instance>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  InstanceState: InstanceState;
  InstanceStatusEvent: ResolverTypeWrapper<InstanceStatusEvent>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  InstanceStatusEventKind: InstanceStatusEventKind;
  StreamLag: ResolverTypeWrapper<StreamLag>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  DateTime: Scalars['DateTime']['output'];
  Instance: Instance | FederationReferenceTypes['Instance'];
  ID: Scalars['ID']['output'];
  InstanceStatusEvent: InstanceStatusEvent;
  String: Scalars['String']['output'];
  StreamLag: StreamLag;
  Int: Scalars['Int']['output'];
  Subscription: Record<PropertyKey, never>;
  Boolean: Scalars['Boolean']['output'];
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type InstanceResolvers<ContextType = StatusContext, ParentType extends ResolversParentTypes['Instance'] = ResolversParentTypes['Instance'], FederationReferenceType extends FederationReferenceTypes['Instance'] = FederationReferenceTypes['Instance']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Instance']> | FederationReferenceType, FederationReferenceType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  revisionId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  state?: Resolver<ResolversTypes['InstanceState'], ParentType, ContextType>;
  targetRevisionId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
};

export type InstanceStatusEventResolvers<ContextType = StatusContext, ParentType extends ResolversParentTypes['InstanceStatusEvent'] = ResolversParentTypes['InstanceStatusEvent']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  instance?: Resolver<ResolversTypes['Instance'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['InstanceStatusEventKind'], ParentType, ContextType>;
  lag?: Resolver<Maybe<ResolversTypes['StreamLag']>, ParentType, ContextType>;
  message?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  previousState?: Resolver<Maybe<ResolversTypes['InstanceState']>, ParentType, ContextType>;
  revisionId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  state?: Resolver<ResolversTypes['InstanceState'], ParentType, ContextType>;
  targetRevisionId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
};

export type StreamLagResolvers<ContextType = StatusContext, ParentType extends ResolversParentTypes['StreamLag'] = ResolversParentTypes['StreamLag']> = {
  resumeAfter?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  skippedEvents?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = StatusContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  instanceStatusChanged?: SubscriptionResolver<ResolversTypes['InstanceStatusEvent'], "instanceStatusChanged", ParentType, ContextType, RequireFields<SubscriptionInstanceStatusChangedArgs, 'snapshot'>>;
};

export type Resolvers<ContextType = StatusContext> = {
  DateTime?: GraphQLScalarType;
  Instance?: InstanceResolvers<ContextType>;
  InstanceStatusEvent?: InstanceStatusEventResolvers<ContextType>;
  StreamLag?: StreamLagResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
};


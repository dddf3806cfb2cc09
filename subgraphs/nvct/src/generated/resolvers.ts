import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { TaskRecord, TaskEventView } from '../model.js';
import type { NvctContext } from '../resolvers.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
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

export type CreateTaskInput = {
  /** Helm values (helm tasks), and nvcfSimulate on simulated clusters. */
  configuration?: InputMaybe<Scalars['JSON']['input']>;
  container?: InputMaybe<ContainerWorkloadInput>;
  gpuSpecification: TaskGpuSpecificationInput;
  helm?: InputMaybe<HelmWorkloadInput>;
  /** How long the task may wait to be launched; default P3D, at most P7D. */
  maxQueuedDuration?: InputMaybe<Scalars['String']['input']>;
  /** How long the task may run once RUNNING; default P1D, at most P7D. */
  maxRuntimeDuration?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  operator?: InputMaybe<OperatorWorkloadInput>;
  /** How long a stopped task's workload gets to exit before it is killed; default PT30S, at most PT1H. */
  terminationGracePeriodDuration?: InputMaybe<Scalars['String']['input']>;
};

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
  /** Ends a task that has not ended (CANCELED); a task that already ended is refused with TASK_ENDED. */
  cancelTask: Task;
  /**
   * Queues a task: exactly one of container / helm / operator. Durations are ISO 8601
   * (PnDTnHnMnS or PnW, e.g. "PT1H"); years and months are refused as ambiguous.
   */
  createTask: Task;
};


export type MutationCancelTaskArgs = {
  id: Scalars['ID']['input'];
};


export type MutationCreateTaskArgs = {
  input: CreateTaskInput;
};

export type OperatorWorkloadInput = {
  manifests: Array<Scalars['JSON']['input']>;
  operatorTypes: Array<Scalars['String']['input']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  /** Pass as `after` for the next page; null on an empty page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** A task of the caller's tenant; null for an id it cannot see. */
  task?: Maybe<Task>;
  /**
   * The caller's tenant's tasks, newest first, optionally of one status. `first` (default 20,
   * at most 100) bounds the page; `after` is the `pageInfo.endCursor` of the page before.
   */
  tasks: TaskConnection;
  /**
   * Tasks of the caller's tenant by id, one entry per id in the order asked; null for an id it
   * cannot see. At most 1000 ids.
   */
  tasksByIds: Array<Maybe<Task>>;
};


export type QueryTaskArgs = {
  id: Scalars['ID']['input'];
};


export type QueryTasksArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<TaskStatus>;
};


export type QueryTasksByIdsArgs = {
  ids: Array<Scalars['ID']['input']>;
};

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
   * Every status transition of the caller's tenant's tasks, in order (QUEUED, LAUNCHED, RUNNING,
   * then one terminal state), each once: of one task with `taskId`, of every task of the tenant
   * without it. A task of another tenant is never seen. `after` resumes from a cursor received
   * earlier: exactly the transitions after it, then live. `snapshot: true` first emits the
   * current status of every matching task, then the transitions from the same position.
   */
  taskStatusChanged: TaskStatusEvent;
};


export type SubscriptionTaskStatusChangedArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  snapshot?: InputMaybe<Scalars['Boolean']['input']>;
  taskId?: InputMaybe<Scalars['ID']['input']>;
};

export type Task = {
  __typename?: 'Task';
  createdAt: Scalars['DateTime']['output'];
  /** When the task reached its terminal state; null until then. */
  endedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Its most recent transitions, oldest first (the newest are kept). */
  events: Array<TaskStatusEvent>;
  gpu: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  instanceType: Scalars['String']['output'];
  maxQueuedDuration: Scalars['String']['output'];
  /** ISO-8601 durations, as given or defaulted. */
  maxRuntimeDuration: Scalars['String']['output'];
  /** Why it ended, for every terminal state but COMPLETED (and the workload's exit message when it gave one). */
  message?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  status: TaskStatus;
  terminationGracePeriodDuration: Scalars['String']['output'];
  workloadType: WorkloadType;
};

export type TaskConnection = {
  __typename?: 'TaskConnection';
  edges: Array<TaskEdge>;
  pageInfo: PageInfo;
};

export type TaskEdge = {
  __typename?: 'TaskEdge';
  cursor: Scalars['String']['output'];
  node: Task;
};

export type TaskGpuSpecificationInput = {
  clusters?: InputMaybe<Array<Scalars['String']['input']>>;
  gpu: Scalars['String']['input'];
  instanceType: Scalars['String']['input'];
  regions?: InputMaybe<Array<Scalars['String']['input']>>;
};

/**
 * QUEUED → LAUNCHED → RUNNING → one terminal state: COMPLETED, ERRORED, CANCELED,
 * EXCEEDED_MAX_RUNTIME or EXCEEDED_MAX_QUEUED_DURATION.
 */
export type TaskStatus =
  | 'CANCELED'
  | 'COMPLETED'
  | 'ERRORED'
  | 'EXCEEDED_MAX_QUEUED_DURATION'
  | 'EXCEEDED_MAX_RUNTIME'
  | 'LAUNCHED'
  | 'QUEUED'
  | 'RUNNING';

export type TaskStatusEvent = {
  __typename?: 'TaskStatusEvent';
  at: Scalars['DateTime']['output'];
  /** Opaque position of this transition; from taskStatusChanged, pass it as `after` to resume. */
  cursor: Scalars['String']['output'];
  /**
   * From taskStatusChanged only (null in Task.events): set when the subscriber fell behind and
   * earlier transitions of this task were conflated away. Resubscribe with after:
   * lag.resumeAfter to receive every one of them.
   */
  lag?: Maybe<StreamLag>;
  message?: Maybe<Scalars['String']['output']>;
  status: TaskStatus;
  task: Task;
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
  Task: Task;
};

/** Mapping of federation reference types */
export type FederationReferenceTypes = {
  Task:
    ( { __typename: 'Task' }
    & GraphQLRecursivePick<FederationTypes['Task'], {"id":true}> );
};



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  ContainerWorkloadInput: ContainerWorkloadInput;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  CreateTaskInput: CreateTaskInput;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  HelmWorkloadInput: HelmWorkloadInput;
  JSON: ResolverTypeWrapper<Scalars['JSON']['output']>;
  KeyValueInput: KeyValueInput;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  OperatorWorkloadInput: OperatorWorkloadInput;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  StreamLag: ResolverTypeWrapper<StreamLag>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Task: ResolverTypeWrapper<TaskRecord>;
  TaskConnection: ResolverTypeWrapper<Omit<TaskConnection, 'edges'> & { edges: Array<ResolversTypes['TaskEdge']> }>;
  TaskEdge: ResolverTypeWrapper<Omit<TaskEdge, 'node'> & { node: ResolversTypes['Task'] }>;
  TaskGpuSpecificationInput: TaskGpuSpecificationInput;
  TaskStatus: TaskStatus;
  TaskStatusEvent: ResolverTypeWrapper<TaskEventView>;
  WorkloadType: WorkloadType;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  ContainerWorkloadInput: ContainerWorkloadInput;
  String: Scalars['String']['output'];
  CreateTaskInput: CreateTaskInput;
  DateTime: Scalars['DateTime']['output'];
  HelmWorkloadInput: HelmWorkloadInput;
  JSON: Scalars['JSON']['output'];
  KeyValueInput: KeyValueInput;
  Mutation: Record<PropertyKey, never>;
  ID: Scalars['ID']['output'];
  OperatorWorkloadInput: OperatorWorkloadInput;
  PageInfo: PageInfo;
  Boolean: Scalars['Boolean']['output'];
  Query: Record<PropertyKey, never>;
  Int: Scalars['Int']['output'];
  StreamLag: StreamLag;
  Subscription: Record<PropertyKey, never>;
  Task: TaskRecord;
  TaskConnection: Omit<TaskConnection, 'edges'> & { edges: Array<ResolversParentTypes['TaskEdge']> };
  TaskEdge: Omit<TaskEdge, 'node'> & { node: ResolversParentTypes['Task'] };
  TaskGpuSpecificationInput: TaskGpuSpecificationInput;
  TaskStatusEvent: TaskEventView;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export interface JsonScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSON'], any> {
  name: 'JSON';
}

export type MutationResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  cancelTask?: Resolver<ResolversTypes['Task'], ParentType, ContextType, RequireFields<MutationCancelTaskArgs, 'id'>>;
  createTask?: Resolver<ResolversTypes['Task'], ParentType, ContextType, RequireFields<MutationCreateTaskArgs, 'input'>>;
};

export type PageInfoResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  task?: Resolver<Maybe<ResolversTypes['Task']>, ParentType, ContextType, RequireFields<QueryTaskArgs, 'id'>>;
  tasks?: Resolver<ResolversTypes['TaskConnection'], ParentType, ContextType, Partial<QueryTasksArgs>>;
  tasksByIds?: Resolver<Array<Maybe<ResolversTypes['Task']>>, ParentType, ContextType, RequireFields<QueryTasksByIdsArgs, 'ids'>>;
};

export type StreamLagResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['StreamLag'] = ResolversParentTypes['StreamLag']> = {
  resumeAfter?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  skippedEvents?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  taskStatusChanged?: SubscriptionResolver<ResolversTypes['TaskStatusEvent'], "taskStatusChanged", ParentType, ContextType, RequireFields<SubscriptionTaskStatusChangedArgs, 'snapshot'>>;
};

export type TaskResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['Task'] = ResolversParentTypes['Task'], FederationReferenceType extends FederationReferenceTypes['Task'] = FederationReferenceTypes['Task']> = {
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Task']> | FederationReferenceType, FederationReferenceType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  endedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  events?: Resolver<Array<ResolversTypes['TaskStatusEvent']>, ParentType, ContextType>;
  gpu?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  instanceType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  maxQueuedDuration?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  maxRuntimeDuration?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['TaskStatus'], ParentType, ContextType>;
  terminationGracePeriodDuration?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  workloadType?: Resolver<ResolversTypes['WorkloadType'], ParentType, ContextType>;
};

export type TaskConnectionResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['TaskConnection'] = ResolversParentTypes['TaskConnection']> = {
  edges?: Resolver<Array<ResolversTypes['TaskEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type TaskEdgeResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['TaskEdge'] = ResolversParentTypes['TaskEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Task'], ParentType, ContextType>;
};

export type TaskStatusEventResolvers<ContextType = NvctContext, ParentType extends ResolversParentTypes['TaskStatusEvent'] = ResolversParentTypes['TaskStatusEvent']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lag?: Resolver<Maybe<ResolversTypes['StreamLag']>, ParentType, ContextType>;
  message?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['TaskStatus'], ParentType, ContextType>;
  task?: Resolver<ResolversTypes['Task'], ParentType, ContextType>;
};

export type Resolvers<ContextType = NvctContext> = {
  DateTime?: GraphQLScalarType;
  JSON?: GraphQLScalarType;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  StreamLag?: StreamLagResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  Task?: TaskResolvers<ContextType>;
  TaskConnection?: TaskConnectionResolvers<ContextType>;
  TaskEdge?: TaskEdgeResolvers<ContextType>;
  TaskStatusEvent?: TaskStatusEventResolvers<ContextType>;
};


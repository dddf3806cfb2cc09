export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
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
  args: InputMaybe<Array<Scalars['String']['input']>>;
  environment: InputMaybe<Array<KeyValueInput>>;
  image: Scalars['String']['input'];
};

export type CreateTaskInput = {
  /** Helm values (helm tasks), and nvcfSimulate on simulated clusters. */
  configuration: InputMaybe<Scalars['JSON']['input']>;
  container: InputMaybe<ContainerWorkloadInput>;
  gpuSpecification: TaskGpuSpecificationInput;
  helm: InputMaybe<HelmWorkloadInput>;
  /** How long the task may wait to be launched; default P3D, at most P7D. */
  maxQueuedDuration: InputMaybe<Scalars['String']['input']>;
  /** How long the task may run once RUNNING; default P1D, at most P7D. */
  maxRuntimeDuration: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
  operator: InputMaybe<OperatorWorkloadInput>;
  /** How long a stopped task's workload gets to exit before it is killed; default PT30S, at most PT1H. */
  terminationGracePeriodDuration: InputMaybe<Scalars['String']['input']>;
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
  /** Pass as `after` for the next page; null on an empty page. */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
};

export type Query = {
  /** A task of the caller's tenant; null for an id it cannot see. */
  task: Maybe<Task>;
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
  after: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
  status: InputMaybe<TaskStatus>;
};


export type QueryTasksByIdsArgs = {
  ids: Array<Scalars['ID']['input']>;
};

export type StreamLag = {
  /** A cursor just before the first skipped transition. */
  resumeAfter: Scalars['String']['output'];
  /** How many transitions of this instance (or task) were skipped. */
  skippedEvents: Scalars['Int']['output'];
};

export type Subscription = {
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
  after: InputMaybe<Scalars['String']['input']>;
  snapshot?: InputMaybe<Scalars['Boolean']['input']>;
  taskId: InputMaybe<Scalars['ID']['input']>;
};

export type Task = {
  createdAt: Scalars['DateTime']['output'];
  /** When the task reached its terminal state; null until then. */
  endedAt: Maybe<Scalars['DateTime']['output']>;
  /** Its most recent transitions, oldest first (the newest are kept). */
  events: Array<TaskStatusEvent>;
  gpu: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  instanceType: Scalars['String']['output'];
  maxQueuedDuration: Scalars['String']['output'];
  /** ISO-8601 durations, as given or defaulted. */
  maxRuntimeDuration: Scalars['String']['output'];
  /** Why it ended, for every terminal state but COMPLETED (and the workload's exit message when it gave one). */
  message: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  status: TaskStatus;
  terminationGracePeriodDuration: Scalars['String']['output'];
  workloadType: WorkloadType;
};

export type TaskConnection = {
  edges: Array<TaskEdge>;
  pageInfo: PageInfo;
};

export type TaskEdge = {
  cursor: Scalars['String']['output'];
  node: Task;
};

export type TaskGpuSpecificationInput = {
  clusters: InputMaybe<Array<Scalars['String']['input']>>;
  gpu: Scalars['String']['input'];
  instanceType: Scalars['String']['input'];
  regions: InputMaybe<Array<Scalars['String']['input']>>;
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
  at: Scalars['DateTime']['output'];
  /** Opaque position of this transition; from taskStatusChanged, pass it as `after` to resume. */
  cursor: Scalars['String']['output'];
  /**
   * From taskStatusChanged only (null in Task.events): set when the subscriber fell behind and
   * earlier transitions of this task were conflated away. Resubscribe with after:
   * lag.resumeAfter to receive every one of them.
   */
  lag: Maybe<StreamLag>;
  message: Maybe<Scalars['String']['output']>;
  status: TaskStatus;
  task: Task;
};

export type WorkloadType =
  | 'CONTAINER'
  | 'HELM'
  | 'OPERATOR';

export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
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
  id: Scalars['ID']['output'];
  revisionId: Maybe<Scalars['ID']['output']>;
  state: InstanceState;
  /**
   * The revision this instance is moving to, for its current state: set while it is UPDATING
   * (revisionId is still the revision it serves) and when it is FAILED because an update
   * failed; null in every other state, and for states reported by agents older than this field.
   */
  targetRevisionId: Maybe<Scalars['ID']['output']>;
  updatedAt: Scalars['DateTime']['output'];
};

export type InstanceState =
  | 'ACTIVE'
  | 'FAILED'
  | 'STARTING'
  | 'TERMINATED'
  | 'UPDATING';

export type InstanceStatusEvent = {
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
  lag: Maybe<StreamLag>;
  message: Maybe<Scalars['String']['output']>;
  previousState: Maybe<InstanceState>;
  /**
   * The revision the instance runs (serves) after this transition: on UPDATING still the one it
   * is moving away from, on the ACTIVE that completes an update the new one; null while
   * STARTING and on FAILED.
   */
  revisionId: Maybe<Scalars['ID']['output']>;
  state: InstanceState;
  /**
   * The revision the instance is moving to. Set on UPDATING (revisionId stays the revision it
   * serves until the new one is ready) and on a FAILED that ended an update; null on every
   * other transition: the ACTIVE that completes an update carries the new revision in
   * revisionId, and an update that failed permanently ends in ACTIVE on the old revisionId
   * with a message naming the revision that failed. Null as well on events published by
   * agents older than this field.
   */
  targetRevisionId: Maybe<Scalars['ID']['output']>;
};

export type InstanceStatusEventKind =
  | 'SNAPSHOT'
  | 'TRANSITION';

export type StreamLag = {
  /** A cursor just before the first skipped transition. */
  resumeAfter: Scalars['String']['output'];
  /** How many transitions of this instance (or task) were skipped. */
  skippedEvents: Scalars['Int']['output'];
};

export type Subscription = {
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
  after: InputMaybe<Scalars['String']['input']>;
  functionId: InputMaybe<Scalars['ID']['input']>;
  gpuSpecificationId: InputMaybe<Scalars['ID']['input']>;
  instanceId: InputMaybe<Scalars['ID']['input']>;
  snapshot?: InputMaybe<Scalars['Boolean']['input']>;
  versionId: InputMaybe<Scalars['ID']['input']>;
};

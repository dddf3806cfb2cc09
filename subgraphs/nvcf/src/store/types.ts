import type {
  DeploymentRecord,
  FunctionRecord,
  FunctionStatus,
  InstanceObservation,
  RevisionPair,
  SpecRecord,
  VersionRecord,
} from '../model.js';

/** nvcf's persistence port: memory (embedded default) and Cassandra implement it. */
export interface NvcfStore extends AsyncDisposable {
  putFunction(f: FunctionRecord): Promise<void>;
  getFunctions(ids: readonly string[]): Promise<(FunctionRecord | null)[]>;
  listFunctions(ncaId: string): Promise<FunctionRecord[]>;

  putVersion(v: VersionRecord): Promise<void>;
  getVersions(ids: readonly string[]): Promise<(VersionRecord | null)[]>;
  listVersions(functionIds: readonly string[]): Promise<VersionRecord[][]>;
  setVersionStatus(id: string, status: FunctionStatus, expected?: FunctionStatus[]): Promise<boolean>;

  /** Writes a deployment, its specifications, their first revisions and the version link at once. */
  putDeployment(d: DeploymentRecord, specs: SpecRecord[], revisions: RevisionPair[]): Promise<void>;
  getDeployments(ids: readonly string[]): Promise<(DeploymentRecord | null)[]>;
  getSpecs(ids: readonly string[]): Promise<(SpecRecord | null)[]>;
  setSpecBounds(id: string, minInstances: number, maxInstances: number): Promise<void>;

  getRevisions(specIds: readonly string[]): Promise<RevisionPair[]>;
  /**
   * Replaces the pair only if the latest revision's id is still `expectedLatestId`
   * (null: no revision yet). The atomic step behind "no lost update" (rule 5).
   */
  casRevisions(specId: string, expectedLatestId: string | null, next: Omit<RevisionPair, 'specId'>): Promise<boolean>;
  /** Pairs whose latest revision is PENDING or ROLLING_OUT (deadline sweep). */
  inFlightRevisions(): Promise<RevisionPair[]>;

  /**
   * Keeps the newest observation per instance by clock, in any order of calls (a stale or repeated
   * one changes nothing): idempotent, and commutative across concurrent writers.
   */
  recordInstance(specId: string, obs: InstanceObservation): Promise<void>;
  instanceStates(specId: string): Promise<InstanceObservation[]>;
  dispose(): Promise<void>;
}

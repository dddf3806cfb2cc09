export type FunctionStatus = 'INACTIVE' | 'DEPLOYING' | 'ACTIVE' | 'DEGRADING' | 'DEGRADED' | 'ERROR' | 'DELETED';
export type WorkloadType = 'CONTAINER' | 'HELM' | 'OPERATOR';
export type RevisionStatus = 'PENDING' | 'ROLLING_OUT' | 'APPLIED' | 'FAILED' | 'SUPERSEDED';
export type JsonObject = Record<string, unknown>;

export interface Health {
  protocol: 'HTTP' | 'gRPC';
  uri: string;
  port: number;
  timeout?: string | null;
  expectedStatusCode?: number | null;
}

export interface FunctionRecord {
  id: string;
  ncaId: string;
  name: string;
  createdAt: string;
}

export interface VersionRecord {
  id: string;
  functionId: string;
  ncaId: string;
  status: FunctionStatus;
  workloadType: WorkloadType;
  helmChart?: string | null;
  helmChartServiceName?: string | null;
  containerImage?: string | null;
  containerArgs?: string[] | null;
  containerEnvironment?: Record<string, string> | null;
  operatorTypes?: string[] | null;
  manifests?: JsonObject[] | null;
  inferenceUrl?: string | null;
  inferencePort?: number | null;
  health?: Health | null;
  deploymentId?: string | null;
  createdAt: string;
}

export interface DeploymentRecord {
  id: string;
  versionId: string;
  ncaId: string;
  specIds: string[];
  manifestMergePatches?: JsonObject[] | null;
  serviceName?: string | null;
  servicePort?: number | null;
  createdAt: string;
}

export interface SpecRecord {
  id: string;
  deploymentId: string;
  versionId: string;
  functionId: string;
  ncaId: string;
  gpu: string;
  instanceType: string;
  minInstances: number;
  maxInstances: number;
  maxRequestConcurrency: number;
  clusters: string[];
  regions: string[];
  attributes: string[];
}

export interface Revision {
  id: string;
  specId: string;
  status: RevisionStatus;
  configuration?: JsonObject | null;
  manifestMergePatches?: JsonObject[] | null;
  createdAt: string;
  appliedAt?: string | null;
  failureReason?: string | null;
  deadline?: string | null;
  /** the instances ICMS resolved for this revision's update action */
  targets?: string[] | null;
  updateActionId?: string | null;
  /** the revision this one replaced while it was still rolling out */
  supersedes?: string | null;
  /** when it was handed to ICMS (ROLLING_OUT); absent on revisions stored before this field */
  startedAt?: string | null;
  /** a deployment's first revision whose launch ICMS has not answered yet (PENDING until it does) */
  launch?: boolean;
}

/** Exactly two revisions are kept per specification (DOMAIN.md, rule 5). */
export interface RevisionPair {
  specId: string;
  latest: Revision | null;
  lastApplied: Revision | null;
}

/** What nvcf knows of one instance, from the status stream. */
export interface InstanceObservation {
  instanceId: string;
  state: 'STARTING' | 'ACTIVE' | 'UPDATING' | 'FAILED' | 'TERMINATED';
  revisionId: string | null;
  clock: number;
  /** an update to this revision failed permanently; the instance still serves revisionId */
  failedRevisionId?: string | null;
  /** UPDATING (and a FAILED that ended an update): where it is moving; absent from older agents */
  targetRevisionId?: string | null;
  message?: string | null;
}

/** RolloutProgress (schema/nvcf.graphql says what each count holds). */
export interface RolloutProgress {
  total: number;
  applied: number;
  updating: number;
  failed: number;
  pending: number;
  startedAt: string | null;
  deadline: string | null;
}

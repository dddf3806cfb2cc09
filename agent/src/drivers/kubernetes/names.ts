import { createHash } from 'node:crypto';

export const FIELD_MANAGER = 'nvcf-agent';
export const MINISERVICE = { apiVersion: 'nvca.nvcf.nvidia.io/v1alpha1', kind: 'MiniService' } as const;
export const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace' } as const;
export const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;

/** Which task an object runs (a task's objects also carry its id as their instance id: see tasks.ts). */
export const TASK_LABEL = 'nvcf.nvidia.com/task-id';

/** Which agent's cluster an object belongs to: simulated clusters may share one API server. */
export const CLUSTER_LABEL = 'nvcf.nvidia.com/cluster-id';

/** What a restarted agent must know, kept on the instance's record object. */
export const RECORD = {
  desired: 'nvcf.nvidia.com/desired',
  readyRevision: 'nvcf.nvidia.com/ready-revision-id',
  reportedState: 'nvcf.nvidia.com/reported-state',
  lastClock: 'nvcf.nvidia.com/last-clock',
} as const;

/**
 * A DNS-1123 label (63 characters, lowercase alphanumerics and '-') from arbitrary ids; a
 * hash of the original keeps two ids apart when sanitising or shortening made them equal.
 */
export function dnsLabel(...parts: string[]): string {
  const raw = parts.join('-');
  const clean = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (clean === raw && clean.length <= 63) return clean;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${clean.slice(0, 63 - 9).replace(/-+$/, '')}-${hash}`;
}

/** Names of one instance's objects in one cluster. */
export interface InstanceNames {
  /** the cluster-scoped MiniService of a Helm instance */
  miniService(instanceId: string): string;
  /** the namespace of an operator instance: its manifests' names may repeat across instances */
  namespace(instanceId: string): string;
}

export const instanceNames = (prefix: string): InstanceNames => ({
  miniService: (instanceId) => dnsLabel(prefix, instanceId),
  namespace: (instanceId) => dnsLabel(prefix, instanceId),
});

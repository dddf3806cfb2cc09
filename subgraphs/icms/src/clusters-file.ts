import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError, type Env } from '@nvcf/config';
import type { ClusterGpu, ClusterRecord } from './model.js';

// Kubernetes' own label syntax: a selector it would refuse fails every task's Job at the agent,
// long after the file was read, so the file is refused at start instead
const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is no Kubernetes label key (`[prefix/]name`), or null. */
function labelKeyProblem(key: string): string | null {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? [null, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== null && !(prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)))
    return `label key '${key}': its prefix must be a DNS subdomain (lower-case letters, digits, '-', '.')`;
  if (!(name.length <= 63 && NAME.test(name)))
    return `label key '${key}': its name must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
  return null;
}

/** Why `value` is no Kubernetes label value, or null (empty is one). */
function labelValueProblem(key: string, value: unknown): string | null {
  if (typeof value !== 'string') return `label '${key}': its value must be a string (got ${JSON.stringify(value)})`;
  if (value === '' || (value.length <= 63 && NAME.test(value))) return null;
  return `label '${key}': its value '${value}' must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a GPU entry's `nodeSelectors` cannot be used, or null. */
function nodeSelectorsProblem(g: Partial<ClusterGpu>): string | null {
  if (g.nodeSelectors === undefined) return null;
  if (!isMap(g.nodeSelectors)) return 'nodeSelectors must map instance types to node labels';
  for (const [instanceType, labels] of Object.entries(g.nodeSelectors)) {
    const where = `nodeSelectors.${instanceType}`;
    if (!g.instanceTypes?.includes(instanceType)) return `${where}: not one of the entry's instanceTypes`;
    if (!isMap(labels) || !Object.keys(labels).length) return `${where} must be a non-empty map of node labels`;
    for (const [key, value] of Object.entries(labels)) {
      const why = labelKeyProblem(key) ?? labelValueProblem(key, value);
      if (why) return `${where}: ${why}`;
    }
  }
  return null;
}

/** Clusters to register at start (idempotent): a YAML or JSON list of cluster records. */
export function readClusters(env: Env): ClusterRecord[] {
  const file = env.ICMS_CLUSTERS_FILE;
  if (!file) return [];
  let list: unknown;
  try {
    list = parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`ICMS_CLUSTERS_FILE=${file} cannot be read: ${(cause as Error).message}`);
  }
  if (!Array.isArray(list)) throw new ConfigError(`ICMS_CLUSTERS_FILE=${file} must hold a list of clusters`);
  for (const [i, c] of list.entries()) {
    const r = c as Partial<ClusterRecord>;
    if (
      typeof r?.id !== 'string' ||
      typeof r.name !== 'string' ||
      typeof r.ncaId !== 'string' ||
      !Array.isArray(r.gpus) ||
      !Array.isArray(r.authorizedNcaIds)
    ) {
      throw new ConfigError(
        `ICMS_CLUSTERS_FILE=${file}: cluster ${i} needs id, name, ncaId, authorizedNcaIds and gpus`,
      );
    }
    for (const g of r.gpus as Partial<ClusterGpu>[]) {
      const counts = Object.values(g?.gpusPerInstance ?? {});
      if (
        (g?.capacity !== undefined && !(Number.isInteger(g.capacity) && g.capacity >= 0)) ||
        (g?.gpusPerInstance !== undefined && typeof g.gpusPerInstance !== 'object') ||
        counts.some((n) => !(Number.isInteger(n) && n >= 1))
      ) {
        throw new ConfigError(
          `ICMS_CLUSTERS_FILE=${file}: cluster ${r.id}, GPU ${g?.name}: capacity must be a whole number ≥ 0 and gpusPerInstance map instance types to whole numbers ≥ 1`,
        );
      }
      const why = nodeSelectorsProblem(g ?? {});
      if (why) throw new ConfigError(`ICMS_CLUSTERS_FILE=${file}: cluster ${r.id}, GPU ${g?.name}: ${why}`);
    }
  }
  return (list as ClusterRecord[]).map((c) => ({ ...c, attributes: c.attributes ?? [], regions: c.regions ?? [] }));
}

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError, type Env } from '@nvcf/config';
import { runSubgraphMain } from '@nvcf/service';
import { createIcmsServer } from './server.js';
import { createCassandraIcmsStore } from './store/index.js';
import type { ClusterGpu, ClusterRecord } from './model.js';

/** Clusters to register at start (idempotent): a YAML or JSON list of cluster records. */
function readClusters(env: Env): ClusterRecord[] {
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
    }
  }
  return (list as ClusterRecord[]).map((c) => ({ ...c, attributes: c.attributes ?? [], regions: c.regions ?? [] }));
}

runSubgraphMain(
  'icms',
  { port: 4002 },
  (env) => ({
    clusters: readClusters(env),
  }),
  async ({ bus, cassandra, keyspace, config: c }) =>
    createIcmsServer({
      store: createCassandraIcmsStore(cassandra, { keyspace: keyspace('icms_api') }),
      bus,
      secret: c.secret,
      clusters: c.clusters,
      port: c.port,
      host: c.host,
      consumerName: c.consumerName,
      consumerStart: c.consumerStart,
    }),
);

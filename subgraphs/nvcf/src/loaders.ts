import DataLoader from 'dataloader';
import type { NvcfStore } from './store/index.js';

/** One store call per batch, per request; created fresh for every request. */
export function createLoaders(store: NvcfStore) {
  return {
    functions: new DataLoader((ids: readonly string[]) => store.getFunctions(ids)),
    versions: new DataLoader((ids: readonly string[]) => store.getVersions(ids)),
    versionsByFunction: new DataLoader((ids: readonly string[]) => store.listVersions(ids)),
    deployments: new DataLoader((ids: readonly string[]) => store.getDeployments(ids)),
    specs: new DataLoader((ids: readonly string[]) => store.getSpecs(ids)),
    revisions: new DataLoader((ids: readonly string[]) => store.getRevisions(ids)),
    // by spec: every revision's progress in a request shares its spec's one read (one partition on Cassandra)
    instanceStates: new DataLoader((specIds: readonly string[]) =>
      Promise.all(specIds.map((id) => store.instanceStates(id))),
    ),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;

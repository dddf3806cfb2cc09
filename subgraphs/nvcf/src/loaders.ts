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
  };
}
export type Loaders = ReturnType<typeof createLoaders>;

export { subgraphNames, subgraphSdl, composeSupergraph, readSupergraph, readPublicSchema, persistedDocumentsPath, withSubgraphUrls, placeholderUrl, CompositionError } from './compose.js';
export type { SubgraphName } from './compose.js';

export {
  subgraphNames,
  subgraphSdl,
  composeSupergraph,
  readSupergraph,
  readPublicSchema,
  publicSchemaOf,
  withSubgraphUrls,
  placeholderUrl,
  CompositionError,
} from './compose.js';
export type { SubgraphName } from './compose.js';

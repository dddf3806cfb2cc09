import { createHash } from 'node:crypto';
import { GraphQLError, Kind, buildASTSchema, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { publicSchemaOf, withSubgraphUrls, type SubgraphName } from '@nvcf/schema';

/** A supergraph that cannot replace the one being served; the message says why. */
export class SupergraphInvalid extends Error {
  override name = 'SupergraphInvalid';
}

/** A supergraph checked and ready to serve. */
export interface PreparedSupergraph {
  /** sha256 of the text as given (the ConfigMap's bytes), hex */
  hash: string;
  /** the text with the subgraphs pointed at this deployment's addresses: what the runtime plans with */
  sdl: string;
  /** what clients may select: status subscriptions are validated and executed against it */
  publicSchema: GraphQLSchema;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const where = (err: unknown) =>
  err instanceof GraphQLError && err.locations?.length
    ? `${err.message} (line ${err.locations[0].line}, column ${err.locations[0].column})`
    : (err as Error).message;

/**
 * Everything about a supergraph the gateway can check before its runtime sees it: GraphQL
 * syntax, a schema that builds (every type and directive defined), the shape of a composed
 * Federation supergraph (join__Graph, a URL per subgraph), and the public schema it yields.
 * The query planner is built from it next (runtime.ts); a failure there keeps the old one too.
 */
export function prepareSupergraph(text: string, subgraphs: Record<SubgraphName, string>): PreparedSupergraph {
  const hash = sha256(text);
  const sdl = withSubgraphUrls(text, subgraphs);
  let doc: DocumentNode;
  try {
    doc = parse(sdl, { noLocation: false });
  } catch (err) {
    throw new SupergraphInvalid(`not GraphQL: ${where(err)}`, { cause: err });
  }
  const graphs = doc.definitions.find((d) => d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === 'join__Graph');
  if (!graphs || graphs.kind !== Kind.ENUM_TYPE_DEFINITION || !graphs.values?.length)
    throw new SupergraphInvalid(
      'not a composed supergraph: it has no join__Graph enum (compose the subgraphs first: npm run schema:compose)',
    );
  for (const v of graphs.values) {
    const join = v.directives?.find((d) => d.name.value === 'join__graph');
    const url = join?.arguments?.find((a) => a.name.value === 'url')?.value;
    if (!url || url.kind !== Kind.STRING || !url.value)
      throw new SupergraphInvalid(`subgraph ${v.name.value} has no URL (@join__graph(url:))`);
  }
  try {
    buildASTSchema(doc);
  } catch (err) {
    throw new SupergraphInvalid(`the supergraph schema does not build: ${where(err)}`, { cause: err });
  }
  let publicSchema: GraphQLSchema;
  try {
    publicSchema = publicSchemaOf(doc);
  } catch (err) {
    throw new SupergraphInvalid(`its public schema does not build: ${where(err)}`, { cause: err });
  }
  if (!publicSchema.getQueryType()) throw new SupergraphInvalid('its public schema has no Query type');
  return { hash, sdl, publicSchema };
}

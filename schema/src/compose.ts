import { readFileSync } from 'node:fs';
import {
  parse,
  buildASTSchema,
  lexicographicSortSchema,
  printSchema,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { composeServices, transformSupergraphToPublicSchema } from '@theguild/federation-composition';

export const subgraphNames = ['nvcf', 'icms', 'nvca-status', 'nvct'] as const;
export type SubgraphName = (typeof subgraphNames)[number];

const here = (file: string) => new URL(`../${file}`, import.meta.url);

/** The committed SDL of one subgraph: the contract its server is built from. */
export const subgraphSdl = (name: SubgraphName): string => readFileSync(here(`${name}.graphql`), 'utf8');

/** Placeholder routing URL; the gateway substitutes the real address at start. */
export const placeholderUrl = (name: SubgraphName) => `http://${name}.subgraph.invalid/graphql`;

export class CompositionError extends Error {
  override name = 'CompositionError';
}

/** Composes the committed SDLs, or others (`sdl`: the schema check composes a candidate copy). */
export function composeSupergraph(sdl: (name: SubgraphName) => string = subgraphSdl): {
  supergraph: string;
  publicSchema: string;
} {
  const result = composeServices(
    subgraphNames.map((name) => ({ name, typeDefs: parse(sdl(name)), url: placeholderUrl(name) })),
  );
  if (result.errors?.length) {
    throw new CompositionError(`composition failed:\n${result.errors.map((e) => `- ${e.message}`).join('\n')}`);
  }
  const supergraph = result.supergraphSdl!;
  const publicSchema = printSchema(lexicographicSortSchema(publicSchemaOf(parse(supergraph))));
  return { supergraph, publicSchema: `${publicSchema}\n` };
}

/** What clients see of a supergraph: federation's types and directives, and @inaccessible fields, left out. */
export function publicSchemaOf(supergraph: DocumentNode): GraphQLSchema {
  return buildASTSchema(transformSupergraphToPublicSchema(supergraph));
}

export const readSupergraph = (): string => readFileSync(here('supergraph.graphql'), 'utf8');
export const readPublicSchema = (): string => readFileSync(here('public.graphql'), 'utf8');

/** Points the supergraph's subgraphs at real addresses. */
export function withSubgraphUrls(supergraph: string, urls: Record<SubgraphName, string>): string {
  let out = supergraph;
  for (const name of subgraphNames) out = out.split(placeholderUrl(name)).join(urls[name]);
  return out;
}

import { parse } from 'graphql';
import { composeServices } from '@theguild/federation-composition';
import { benchSdl, benchSubgraphs } from './subgraphs/schemas.js';

/** The benchmark's supergraph, its subgraphs at `base`/<name>. */
export function benchSupergraph(base: string): string {
  const result = composeServices(
    benchSubgraphs.map((name) => ({ name, typeDefs: parse(benchSdl(name)), url: `${base}/${name}` })),
  );
  if (result.errors?.length)
    throw new Error(`benchmark composition failed: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.supergraphSdl!;
}

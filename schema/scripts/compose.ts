import { writeFileSync } from 'node:fs';
import { composeSupergraph } from '../src/index.js';

const { supergraph, publicSchema } = composeSupergraph();
writeFileSync(new URL('../supergraph.graphql', import.meta.url), supergraph);
writeFileSync(new URL('../public.graphql', import.meta.url), publicSchema);
console.log('wrote schema/supergraph.graphql and schema/public.graphql');

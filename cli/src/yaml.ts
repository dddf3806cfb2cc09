import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let loaded: Yaml | undefined;

/** The yaml package, loaded on first use: only -o yaml and YAML files need it, and its import slows every start. */
export const yaml = (): Yaml => (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);

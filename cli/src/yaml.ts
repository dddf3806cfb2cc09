import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let loaded: Yaml | undefined;

/** The yaml package, loaded on first use: only -o yaml and YAML files need it (≈25 ms of start-up). */
export const yaml = (): Yaml => (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);

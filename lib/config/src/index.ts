export { oneOf, int, str, required, pairs, ConfigError } from './env.js';
export type { Env } from './env.js';
export { readEnvFile } from './env-file.js';

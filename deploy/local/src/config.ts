import { int, oneOf, pairs, str, type Env } from '@nvcf/config';
import { DEV_TOKENS } from '@nvcf/auth';
import { levels } from '@nvcf/logging';

/** Everything `npm start` reads from the environment, validated once. */
export function readConfig(env: Env) {
  return {
    port: int(env, 'PORT', 4000, { min: 0, max: 65535 }),
    host: str(env, 'HOST', '127.0.0.1'),
    backend: oneOf(env, 'NVCF_BACKEND', ['memory', 'real'] as const, 'memory'),
    clusterDriver: oneOf(env, 'CLUSTER_DRIVER', ['simulated', 'kubernetes'] as const, 'simulated'),
    tokens: pairs(env, 'AUTH_TOKENS', { ...DEV_TOKENS }),
    startDelayMs: int(env, 'SIM_START_DELAY_MS', 1500, { min: 0, max: 600_000 }),
    updateDelayMs: int(env, 'SIM_UPDATE_DELAY_MS', 1500, { min: 0, max: 600_000 }),
    revisionDeadlineMs: int(env, 'REVISION_DEADLINE_MS', 600_000, { min: 1000 }),
    secret: env.NVCF_INTERNAL_SECRET || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', levels, 'info'),
  };
}
export type LocalConfig = ReturnType<typeof readConfig>;

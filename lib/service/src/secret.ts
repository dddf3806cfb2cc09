import { readFileSync } from 'node:fs';
import { ConfigError, type Env } from '@nvcf/config';

/**
 * A secret from `NAME`, or from the file `NAME_FILE` names (a Kubernetes secret mount).
 * Outside the embedded default secrets are required: a random one per process would make a
 * cursor issued by one replica fail on the next, and after every restart.
 */
export function readSecret(env: Env, name: string, hint: string): string {
  const file = env[`${name}_FILE`];
  const direct = env[name];
  if (file && direct) throw new ConfigError(`${name} and ${name}_FILE are both set: give one`);
  if (file) {
    let value: string;
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch (cause) {
      throw new ConfigError(`${name}_FILE=${file} cannot be read: ${(cause as Error).message}`);
    }
    if (value.length < 16)
      throw new ConfigError(`${name}_FILE=${file} holds fewer than 16 characters; use a long random value`);
    return value;
  }
  if (!direct) throw new ConfigError(`${name} (or ${name}_FILE) is required: ${hint}`);
  if (direct.length < 16) throw new ConfigError(`${name} has fewer than 16 characters; use a long random value`);
  return direct;
}

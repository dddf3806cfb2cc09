import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import type { Io } from './io.js';

/** What `nvcf login` stores. */
export interface ConfigFile {
  url?: string;
  token?: string;
}

export type Source = 'flag' | 'env' | 'file';
export interface Setting {
  value: string;
  source: Source;
}

export interface ResolvedConfig {
  url?: Setting;
  token?: Setting;
  /** the file `nvcf login` writes, whether or not it exists */
  file: string;
}

/** $XDG_CONFIG_HOME/nvcf/config.json, else ~/.config/nvcf/config.json. */
export function configPath(env: Io['env']): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'nvcf', 'config.json');
}

export async function readConfigFile(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read the configuration file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `the configuration file ${file} is not JSON: ${(err as Error).message}`,
      'run `nvcf login --url URL --token TOKEN` to write it again',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`the configuration file ${file} must hold a JSON object`);
  const o = parsed as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' && o[k] ? o[k] : undefined);
  return { url: str('url'), token: str('token') };
}

/**
 * Writes the file readable by its owner only (it holds a bearer token): the directory 0700, the
 * file 0600, replaced whole by a rename so that a crash never leaves half of one.
 */
export async function writeConfigFile(file: string, cfg: ConfigFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(cfg, null, 2)}\n`, { mode: 0o600 });
    await chmod(tmp, 0o600); // an existing tmp (a crashed run) keeps its mode through writeFile
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Flags first, then NVCF_URL / NVCF_TOKEN, then the file `nvcf login` wrote. */
export async function resolveConfig(flags: { url?: string; token?: string }, env: Io['env']): Promise<ResolvedConfig> {
  const file = configPath(env);
  const pick = (
    flag: string | undefined,
    envValue: string | undefined,
    fileValue: string | undefined,
  ): Setting | undefined =>
    flag
      ? { value: flag, source: 'flag' }
      : envValue
        ? { value: envValue, source: 'env' }
        : fileValue
          ? { value: fileValue, source: 'file' }
          : undefined;
  // a broken file must not stand in the way of flags and variables that say everything
  const complete = (flags.url || env.NVCF_URL) && (flags.token || env.NVCF_TOKEN);
  const fromFile = complete ? {} : await readConfigFile(file);
  return {
    url: pick(flags.url, env.NVCF_URL, fromFile.url),
    token: pick(flags.token, env.NVCF_TOKEN, fromFile.token),
    file,
  };
}

/** The gateway URL, checked: a bare origin gets /graphql (as the client does). */
export function checkUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(
      `'${url}' is not a URL`,
      'pass the gateway endpoint, e.g. --url http://127.0.0.1:4000/graphql',
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`'${url}' is not an http(s) URL`);
  return u.toString();
}

/** For display: enough of a token to recognise it, never all of it. */
export const redact = (token: string) => (token.length <= 8 ? '****' : `${token.slice(0, 4)}…${token.slice(-2)}`);

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReplication } from '@nvcf/cassandra';
import { readEnvFile } from '@nvcf/config';
import { UsageError } from '../cli.js';
import { DEFAULT_MIGRATIONS_DIR } from '../preflight.js';
import type { CassandraSetOptions } from './cassandra-set.js';
import { BackupRefused } from './manifest.js';

// the repository (or image) root, from src/backup/ and dist/backup/ alike
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface Backends extends Omit<CassandraSetOptions, 'log'> {
  natsUrl: string;
  /** NATS_STREAM_REPLICAS, when set */
  streamReplicas?: number;
  /** HELM_BIN: the helm of `--helm-release` */
  helmBin: string;
}

/** Where NATS and Cassandra are: the environment, else .services/env (the environment wins), as the other ops commands. */
export function readBackends(processEnv: NodeJS.ProcessEnv): Backends {
  const env = { ...readEnvFile(path.join(ROOT, '.services', 'env')), ...processEnv };
  const hint = 'set it, or run `npm run services:up` (writes .services/env)';
  if (!env.NATS_URL) throw new UsageError(`NATS_URL is not set: ${hint}`);
  if (!env.CASSANDRA_CONTACT_POINTS) throw new UsageError(`CASSANDRA_CONTACT_POINTS is not set: ${hint}`);
  const suffix = env.CASSANDRA_KEYSPACE_SUFFIX ?? '';
  if (!/^[a-z0-9_]*$/.test(suffix))
    throw new UsageError(`CASSANDRA_KEYSPACE_SUFFIX may hold only a-z, 0-9 and _ (got '${suffix}')`);
  const replicas = env.NATS_STREAM_REPLICAS;
  if (replicas !== undefined && !/^[1-5]$/.test(replicas))
    throw new UsageError(`NATS_STREAM_REPLICAS must be 1 to 5 (got '${replicas}')`);
  let replication;
  try {
    replication = env.CASSANDRA_REPLICATION ? parseReplication(env.CASSANDRA_REPLICATION) : undefined;
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  return {
    natsUrl: env.NATS_URL,
    contactPoints: env.CASSANDRA_CONTACT_POINTS.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    localDataCenter: env.CASSANDRA_LOCAL_DC ?? 'datacenter1',
    keyspaceSuffix: suffix,
    replication,
    migrationsDir: DEFAULT_MIGRATIONS_DIR,
    streamReplicas: replicas === undefined ? undefined : Number(replicas),
    helmBin: env.HELM_BIN ?? 'helm',
  };
}

/** The release (the ops package's version) and, from a checkout, its commit; an image has no .git: NVCF_COMMIT. */
export function releaseOf(processEnv: NodeJS.ProcessEnv): { version: string; commit: string | null } {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'ops', 'package.json'), 'utf8')) as { version: string };
  let commit = processEnv.NVCF_COMMIT ?? null;
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }).trim();
    } catch {
      commit = null;
    }
  }
  return { version: pkg.version, commit };
}

/** How an ops command that backs up or restores ends: its exit code and the line on stderr. */
export function reportFailure(command: string, usage: string, err: unknown): number {
  const e = err instanceof Error ? err : new Error(String(err));
  if (e instanceof UsageError) {
    console.error(`${command}: ${e.message}\n${usage}`);
    return 2;
  }
  if (e instanceof BackupRefused) {
    console.error(`${command}: refused (${e.code}): ${e.message}`);
    return 3;
  }
  const cause = e.cause instanceof Error ? ` (${e.cause.message.split('\n')[0]})` : '';
  console.error(`${command}: ${e.name}: ${e.message}${cause}`);
  return 1;
}
